// One certificate and key for the three servers, made by the service's own self-signed
// generator (packages/server/src/tls.ts), so all three use the key type the service uses.
import { createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedTls } from '@support/server';

export const writeCertificate = async (dir) => {
  const { cert, key } = await selfSignedTls();
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, cert);
  writeFileSync(keyFile, key, { mode: 0o600 });
  const k = createPrivateKey(key);
  const details = k.asymmetricKeyDetails;
  const description = `${k.asymmetricKeyType.toUpperCase()}${details.modulusLength === undefined ? '' : ` ${details.modulusLength}`}${details.namedCurve === undefined ? '' : ` ${details.namedCurve}`}`;
  return { cert, certFile, keyFile, description };
};
