import {DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, NotFound, S3Client, NoSuchKey} from '@aws-sdk/client-s3';
import {Upload} from '@aws-sdk/lib-storage';
import type {Readable} from 'node:stream';
import type {FileStorageConfig} from '../../types.js';
import {isStorageKey, type ByteRange, type FileStorage, type PendingFile, type StoredFile} from './storage.js';

type S3Config = Extract<FileStorageConfig, {kind: 's3'}>;

/**
 * An S3-compatible bucket through the AWS SDK, credentials from the SDK's standard chain
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY): never in the config, never in a message. Uploads
 * go through lib-storage's `Upload` (multipart above 5 MB, at most 4 parts in memory). S3 has no
 * rename: the object is written at its final key, which no row refers to until the row commits,
 * and a discarded upload deletes it (an interrupted multipart upload is aborted by `Upload`).
 */
export function s3Storage(config: S3Config): FileStorage {
  const client = new S3Client({
    region: config.region ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: config.pathStyle,
    ...(config.endpoint ? {endpoint: config.endpoint} : {}),
  });
  // Under the prefix, never beside it: a key from a column is checked as on disk.
  const objectKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 40))}`);
    return config.prefix ? `${config.prefix}/${key}` : key;
  };
  const remove = async (key: string) => {
    await client.send(new DeleteObjectCommand({Bucket: config.bucket, Key: objectKey(key)}));
  };
  return {
    description: `s3 ${config.bucket}${config.prefix ? `/${config.prefix}` : ''}${config.endpoint ? ` at ${config.endpoint}` : ''}`,
    async put(key: string, body: Readable, contentType: string): Promise<PendingFile> {
      const upload = new Upload({client, params: {Bucket: config.bucket, Key: objectKey(key), Body: body, ContentType: contentType}, queueSize: 4, leavePartsOnError: false});
      try {
        await upload.done();
      } catch (error) {
        // A single-part PutObject that failed after the object landed: gone too.
        await remove(key).catch(() => undefined);
        throw body.errored ?? error;
      }
      return {commit: async () => undefined, discard: () => remove(key)};
    },
    async stat(key: string): Promise<StoredFile | undefined> {
      if (!isStorageKey(key)) return undefined;
      try {
        const head = await client.send(new HeadObjectCommand({Bucket: config.bucket, Key: objectKey(key)}));
        return {size: head.ContentLength ?? 0, ...(head.ContentType ? {contentType: head.ContentType} : {})};
      } catch (error) {
        if (error instanceof NotFound || error instanceof NoSuchKey || (error as {$metadata?: {httpStatusCode?: number}}).$metadata?.httpStatusCode === 404) return undefined;
        throw error;
      }
    },
    async read(key: string, range?: ByteRange): Promise<Readable> {
      const answer = await client.send(new GetObjectCommand({Bucket: config.bucket, Key: objectKey(key), ...(range ? {Range: `bytes=${range.start}-${range.end}`} : {})}));
      return answer.Body as Readable;
    },
    delete: remove,
  };
}
