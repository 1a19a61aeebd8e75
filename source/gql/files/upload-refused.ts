/** A file or a multipart request refused for what the client sent: its status and a message for the client. */
export class UploadRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

/** The storage failed to take a file (unreachable, full, refused our credentials): the server's trouble, said without secrets. */
export class StorageUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageUnavailable';
  }
}
