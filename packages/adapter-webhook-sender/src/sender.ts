import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './address-guard.js';

// One delivery attempt: a POST to the receiver, answered within the timeout or failed.
// Redirects are answers, never followed. The receiver's body is read up to 1 KiB and dropped
// beyond, so a receiver that streams forever costs nothing. Without `allowPrivate` the URL must
// be https and every address its host resolves to must be public; the connection goes to the
// address that was checked (no second lookup a DNS rebinding could answer differently).

export interface OutboundRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface OutboundResult {
  /** The receiver's status; null when there was no answer (refused, reset, timed out, blocked). */
  readonly status: number | null;
  readonly durationMs: number;
  /** Why there was no (acceptable) answer, for the delivery log; null on an answer. */
  readonly error: string | null;
  /** The start of the receiver's body, at most `maxResponseBytes`. */
  readonly response: string;
}

export interface OutboundOptions {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  readonly maxResponseBytes: number;
  /** Name resolution (tests stub it); the system resolver by default. */
  readonly resolve?: (host: string) => Promise<readonly string[]>;
}

const systemResolve = async (host: string): Promise<readonly string[]> =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL may not be called, or null when it may (the scheme and host part of the guard). */
export const refusedUrl = (raw: string, allowPrivate: boolean): string | null => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowPrivate) return null;
  return allowPrivate ? 'the URL must be http or https' : 'the URL must be https';
};

const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The address to connect to, after the guard; a string error when the host is refused. */
const pickAddress = async (url: URL, options: OutboundOptions): Promise<{ address: string } | { error: string }> => {
  const host = hostOf(url);
  let addresses: readonly string[];
  try {
    addresses = isIP(host) === 0 ? await (options.resolve ?? systemResolve)(host) : [host];
  } catch {
    return { error: `the host ${host} could not be resolved` };
  }
  if (addresses.length === 0) return { error: `the host ${host} has no address` };
  if (!options.allowPrivate) {
    // Never the address itself (contract §11): the answer must not map the inside of the network.
    if (!addresses.every(isPublicAddress))
      return {
        error:
          isIP(host) === 0
            ? `the host ${host} resolves to an address that is not a public address`
            : `the address ${host} is not a public address`,
      };
  }
  return { address: addresses[0] as string };
};

const readSome = (res: IncomingMessage, max: number): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      res.removeAllListeners('data');
      resolve(Buffer.concat(chunks).subarray(0, max).toString('utf8'));
    };
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= max) {
        done();
        res.destroy();
      }
    });
    res.on('end', done);
    res.on('error', done);
    res.on('aborted', done);
  });

/** Why a receiver may not be called (its scheme, or a host that is not public), or null: the guard before any attempt. */
export const refusedTarget = async (raw: string, options: OutboundOptions): Promise<string | null> => {
  const refused = refusedUrl(raw, options.allowPrivate);
  if (refused !== null)
    return refused === 'the URL must be https' && raw.startsWith('http:') ? `${refused}${privateHint}` : refused;
  const picked = await pickAddress(new URL(raw), options);
  if (!('error' in picked)) return null;
  return options.allowPrivate ||
    picked.error.endsWith('could not be resolved') ||
    picked.error.endsWith('has no address')
    ? picked.error
    : `${picked.error}${privateHint}`;
};

/** Where a receiver on this machine is refused: the switch that allows it (the OpenAPI document's SSRF guard names it too). */
const privateHint =
  ' (a server started with WEBHOOK_ALLOW_PRIVATE=true, for development, also calls http:// and loopback or private addresses)';

/** Sends one POST; never throws. */
export const sendOutbound = async (req: OutboundRequest, options: OutboundOptions): Promise<OutboundResult> => {
  const started = performance.now();
  const took = (): number => Math.round(performance.now() - started);
  const refused = refusedUrl(req.url, options.allowPrivate);
  if (refused !== null) return { status: null, durationMs: took(), error: refused, response: '' };
  const url = new URL(req.url);
  const picked = await pickAddress(url, options);
  if ('error' in picked) return { status: null, durationMs: took(), error: picked.error, response: '' };
  const family = isIP(picked.address);
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (typeof opts === 'object' && opts.all === true) callback(null, [{ address: picked.address, family }]);
    else callback(null, picked.address, family);
  };
  const body = Buffer.from(req.body);
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const settle = (r: Omit<OutboundResult, 'durationMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, durationMs: took() });
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...req.headers, 'Content-Length': String(body.length) },
      },
      (res) => {
        void readSome(res, options.maxResponseBytes).then((response) => {
          settle({ status: res.statusCode ?? null, error: null, response });
        });
      },
    );
    const timer = setTimeout(() => {
      settle({ status: null, error: `no answer within ${String(options.timeoutMs / 1000)} s`, response: '' });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (e: NodeJS.ErrnoException) => {
      settle({ status: null, error: `the request failed: ${e.code ?? e.message}`, response: '' });
    });
    request.end(body);
  });
};
