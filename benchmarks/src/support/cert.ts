// One certificate and key for the servers a benchmark starts, made by the service's own
// self-signed generator (packages/server/src/tls.ts), so every server uses the key type the
// service uses; the client pins this certificate.
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedTls } from '@support/server';

export interface Certificate {
  readonly cert: string;
  readonly key: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** e.g. "EC prime256v1" or "RSA 2048". */
  readonly description: string;
}

export const writeCertificate = async (dir: string): Promise<Certificate> => {
  const { cert, key } = await selfSignedTls();
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, cert);
  writeFileSync(keyFile, key, { mode: 0o600 });
  const k = createPrivateKey(key);
  const details = k.asymmetricKeyDetails ?? {};
  const description = [k.asymmetricKeyType?.toUpperCase() ?? '?', details.modulusLength, details.namedCurve]
    .filter((part) => part !== undefined)
    .join(' ');
  return { cert, key, certFile, keyFile, description };
};
