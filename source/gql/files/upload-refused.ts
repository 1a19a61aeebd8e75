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
