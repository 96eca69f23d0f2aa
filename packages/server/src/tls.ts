import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { generate } from 'selfsigned';
import { ConfigError } from './config.js';

export interface TlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** SHA-256 fingerprint of the certificate, colon-separated hex. */
  readonly fingerprint: string;
  readonly selfSigned: boolean;
}

const fingerprintOf = (cert: string): string => new X509Certificate(cert).fingerprint256;

let cached: Promise<TlsMaterial> | null = null;

/** A self-signed certificate for localhost (made once per process). */
export const selfSignedTls = (): Promise<TlsMaterial> => {
  cached ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    });
    return { cert: pems.cert, key: pems.private, fingerprint: fingerprintOf(pems.cert), selfSigned: true };
  })();
  return cached;
};

const readPem = async (file: string, variable: string): Promise<string> => {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${variable} cannot be read: ${(e as NodeJS.ErrnoException).code ?? 'error'} ${file}`);
  }
};

/** The configured certificate, or a self-signed one when none is configured. */
export const tlsMaterial = async (certFile: string | null, keyFile: string | null): Promise<TlsMaterial> => {
  if (certFile === null || keyFile === null) return selfSignedTls();
  const cert = await readPem(certFile, 'TLS_CERT_FILE');
  const key = await readPem(keyFile, 'TLS_KEY_FILE');
  let fingerprint: string;
  try {
    fingerprint = fingerprintOf(cert);
  } catch {
    throw new ConfigError(`TLS_CERT_FILE is not a PEM certificate: ${certFile}`);
  }
  return { cert, key, fingerprint, selfSigned: false };
};
