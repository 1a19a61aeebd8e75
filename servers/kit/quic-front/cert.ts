import {createHash, X509Certificate} from 'node:crypto';
import {chmodSync, existsSync, mkdirSync, readFileSync, renameSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {WorkbenchError} from '../../../source/core/errors.js';

export interface LocalCertificate {
  certFile: string;
  keyFile: string;
  /** base64 SHA-256 of the certificate's SubjectPublicKeyInfo: what Chromium's `--ignore-certificate-errors-spki-list` takes. */
  spkiHash: string;
  validTo: Date;
}

const DAYS = 30;
// A certificate this close to its end is made again at start.
const RENEW_WITHIN_MS = 24 * 60 * 60 * 1000;

function describe(certFile: string, keyFile: string): LocalCertificate {
  const cert = new X509Certificate(readFileSync(certFile));
  const spki = cert.publicKey.export({type: 'spki', format: 'der'});
  return {certFile, keyFile, spkiHash: createHash('sha256').update(spki).digest('base64'), validTo: new Date(cert.validTo)};
}

/**
 * A self-signed certificate for `localhost` and 127.0.0.1 (P-256, 30 days), made with openssl on
 * first use and kept in `dir` (the key 0600, written under a temporary name and renamed); made
 * again when it is about to run out. Browsers do not trust it: a user adds it (or its SPKI hash,
 * which start-up prints) to the browser, as for any local HTTPS development server.
 */
export async function localCertificate(dir: string, openssl = 'openssl'): Promise<LocalCertificate> {
  mkdirSync(dir, {recursive: true, mode: 0o700});
  const certFile = join(dir, 'localhost.crt');
  const keyFile = join(dir, 'localhost.key');
  if (existsSync(certFile) && existsSync(keyFile)) {
    try {
      const kept = describe(certFile, keyFile);
      if (kept.validTo.getTime() - Date.now() > RENEW_WITHIN_MS) return kept;
    } catch {
      // Unreadable: made again below.
    }
  }
  const suffix = `.${process.pid}.tmp`;
  try {
    await execa(openssl, [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(DAYS),
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
      '-keyout',
      keyFile + suffix,
      '-out',
      certFile + suffix,
    ]);
  } catch (error) {
    const reason =
      (error as {code?: string}).code === 'ENOENT'
        ? 'openssl is not installed (apt-get install openssl)'
        : ((error as {stderr?: string}).stderr?.trim().split('\n').pop() ?? String(error));
    throw new WorkbenchError('config_invalid', `cannot make the local certificate for HTTP/3: ${reason}`);
  }
  chmodSync(keyFile + suffix, 0o600);
  renameSync(keyFile + suffix, keyFile);
  renameSync(certFile + suffix, certFile);
  return describe(certFile, keyFile);
}
