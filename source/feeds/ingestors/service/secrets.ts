import {createCipheriv, createDecipheriv, randomBytes} from 'node:crypto';
import {linkSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {WorkbenchError} from '../../../core/errors.js';
import {ensureDirectory, workbenchHome} from '../../../core/paths.js';

/**
 * Ingestor credentials at rest: AES-256-GCM under a key of this machine,
 * `<WORKBENCH_HOME>/secrets/reader.key` (32 random bytes, 0600 in a 0700 folder, made on first
 * need). The database holds only ciphertext, so a copied database, a backup or a shared
 * PostgreSQL gives no token away. A store moved to another machine needs the key file too, or the
 * credentials re-entered (`workbench ingestors edit`).
 */
export interface SecretBox {
  seal(values: Record<string, string>): string;
  /** Throws WorkbenchError('config_invalid') when the key is not the one that sealed them. */
  open(sealed: string): Record<string, string>;
}

export function keyFile(home = workbenchHome()): string {
  return join(home, 'secrets', 'reader.key');
}

export function secretBox(path = keyFile()): SecretBox {
  let key: Buffer | undefined;
  const theKey = () => (key ??= loadOrCreateKey(path));
  return {
    seal(values) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', theKey(), iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
      return `v1:${iv.toString('base64')}:${cipher.getAuthTag().toString('base64')}:${body.toString('base64')}`;
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      try {
        if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('format');
        const decipher = createDecipheriv('aes-256-gcm', theKey(), Buffer.from(iv, 'base64'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
        return JSON.parse(text) as Record<string, string>;
      } catch {
        throw new WorkbenchError(
          'config_invalid',
          `the stored credentials cannot be decrypted with ${path} (another machine's key, or a new one): enter them again with \`workbench ingestors edit\``,
        );
      }
    },
  };
}

/** Reads the key, or makes one: written to a temp name, then linked into place, so two processes racing agree on one key. */
function loadOrCreateKey(path: string): Buffer {
  try {
    return checked(readFileSync(path), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensureDirectory(join(path, '..'));
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, randomBytes(32), {mode: 0o600, flag: 'wx'});
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, {force: true});
  }
  return checked(readFileSync(path), path);
}

function checked(key: Buffer, path: string): Buffer {
  if (key.length !== 32) throw new WorkbenchError('config_invalid', `${path} is not a key of 32 bytes: move it away and enter the ingestors' credentials again`);
  return key;
}
