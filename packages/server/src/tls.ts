import { X509Certificate } from 'node:crypto';
import { makePrivateDir, privateFileMode, writeFileDurably } from '@support/adapter-embedded';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/**
 * A self-signed certificate for localhost (made once per process). Its key is ECDSA P-256, which
 * every TLS client of the last decade accepts: the server signs each new connection's handshake
 * with it, ~21 µs a signature on this machine's core against ~305 µs for RSA 2048 (`openssl
 * speed`), so fifty connections opened at once no longer hold the event loop for ~15 ms.
 */
export const selfSignedTls = (): Promise<TlsMaterial> => {
  cached ??= (async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '::1' },
          ],
        },
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

/** Where a generated certificate is kept in a data directory (the key readable by its owner only). */
export const keptTlsFiles = { cert: 'tls-cert.pem', key: 'tls-key.pem' } as const;

const readIfThere = async (path: string): Promise<string | null> => {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`DATA_DIR: ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
};

/** Writes a file whole or not at all, synced (a crash or power cut leaves the old state, never half a key). */
const writeWhole = (path: string, text: string, mode: number): Promise<void> => writeFileDurably(path, text, mode);

/**
 * The self-signed certificate kept in `dir`, made there on the first start: the service keeps
 * its identity (and clients their pinned fingerprint) across restarts.
 */
const keptSelfSignedTls = async (dir: string): Promise<TlsMaterial> => {
  const certPath = join(dir, keptTlsFiles.cert);
  const keyPath = join(dir, keptTlsFiles.key);
  const [cert, key] = [await readIfThere(certPath), await readIfThere(keyPath)];
  if (cert !== null && key !== null) {
    try {
      return { cert, key, fingerprint: fingerprintOf(cert), selfSigned: true };
    } catch {
      throw new ConfigError(
        `DATA_DIR: ${certPath} is not a PEM certificate; remove it and ${keptTlsFiles.key} to make a new one`,
      );
    }
  }
  const made = await selfSignedTls();
  makePrivateDir(dir);
  await writeWhole(keyPath, made.key, privateFileMode);
  await writeWhole(certPath, made.cert, privateFileMode);
  return made;
};

/**
 * The configured certificate; else a self-signed one, kept in `keepIn` (the embedded store's
 * data directory) when given, made anew for this process when not.
 */
export const tlsMaterial = async (
  certFile: string | null,
  keyFile: string | null,
  keepIn: string | null = null,
): Promise<TlsMaterial> => {
  if (certFile === null || keyFile === null) return keepIn === null ? selfSignedTls() : keptSelfSignedTls(keepIn);
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
