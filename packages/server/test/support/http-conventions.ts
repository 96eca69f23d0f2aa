import { expect } from 'chai';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:tls';
import type { Answer, Api } from './harness.js';

// Helpers shared by the convention tests (conventions, caching, errors, transport).

export interface FieldError {
  readonly code: number;
  readonly field: string;
  readonly message: string;
}

export interface ErrorBody {
  readonly code: number;
  readonly message: string;
  readonly description: string;
  readonly errors?: readonly FieldError[];
}

/** Members an error body may carry: this API's own, plus RFC 6749's on token failures. */
const errorMembers = ['code', 'message', 'description', 'errors', 'error', 'error_description'];

/**
 * Asserts a JSON error answer: the status, `code` = status × 100 + n, the
 * {code, message, description[, errors]} shape, JSON content type, and nothing that looks
 * like a stack trace.
 */
export const expectError = (a: Answer, status: number, code?: number): ErrorBody => {
  expect(a.status, a.text).to.equal(status);
  expect(a.header('content-type')).to.match(/^application\/json; charset=utf-8$/);
  expect(a.json, a.text).to.be.an('object');
  const body = a.json as ErrorBody;
  expect(body.code).to.be.a('number');
  expect(Math.floor(body.code / 100), `code ${body.code} belongs to status ${status}`).to.equal(status);
  if (code !== undefined) expect(body.code).to.equal(code);
  expect(body.message).to.be.a('string').and.not.equal('');
  expect(body.description).to.be.a('string').and.not.equal('');
  for (const key of Object.keys(body)) expect(errorMembers, `unexpected member "${key}"`).to.include(key);
  if (body.errors !== undefined) {
    expect(body.errors).to.be.an('array').that.is.not.empty;
    for (const e of body.errors) {
      expect(e.code).to.be.a('number');
      expect(e.field).to.be.a('string');
      expect(e.message).to.be.a('string');
    }
  }
  expectNoStack(a);
  return body;
};

/** Nothing of a stack trace or a source path in a body. */
export const expectNoStack = (a: Answer): void => {
  expect(a.text).not.to.match(/\bat .+:\d+:\d+/);
  expect(a.text).not.to.match(/\.(ts|js|mjs):\d+/);
  expect(a.text).not.to.match(/node_modules|\/work\/|stack/i);
};

export interface CreatedTicket {
  readonly id: number;
  /** /v1/tickets/{id} */
  readonly path: string;
  readonly json: Record<string, unknown>;
}

let ticketCounter = 0;

/** Creates a ticket as `token` (an agent or admin) for the customer `customerId`. */
export const createTicket = async (
  api: Api,
  token: string,
  customerId: number,
  fields: Readonly<Record<string, unknown>> = {},
): Promise<CreatedTicket> => {
  ticketCounter += 1;
  const a = await api.post(
    '/v1/tickets',
    {
      subject: `Ticket ${ticketCounter}`,
      summary: `Summary of ticket ${ticketCounter}`,
      customer_id: customerId,
      ...fields,
    },
    { token },
  );
  expect(a.status, a.text).to.equal(201);
  const json = a.json as Record<string, unknown>;
  const id = json.id as number;
  return { id, path: `/v1/tickets/${id}`, json };
};

/** The envelope of `envelope=true` and JSONP answers. */
export interface EnvelopeBody {
  readonly status_code: number;
  readonly next_page: string | null;
  readonly response: unknown;
}

/** The argument of a JSONP body `/**\/name(...);`, parsed. */
export const jsonpArgument = (text: string, name: string): EnvelopeBody => {
  const prefix = `/**/${name}(`;
  expect(text.startsWith(prefix), text.slice(0, 80)).to.equal(true);
  expect(text.endsWith(');'), text.slice(-20)).to.equal(true);
  return JSON.parse(text.slice(prefix.length, -2)) as EnvelopeBody;
};

/** An HTTP-date in IMF-fixdate (RFC 1123) form. */
export const imfFixdate =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** What a low-level exchange received: status, headers, body text. */
export interface StreamedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/**
 * Sends a body in chunks (Transfer-Encoding: chunked, no Content-Length), which the harness
 * cannot do. Resolves with the answer even when the server answers before the body is sent.
 */
export const streamedRequest = (
  api: Api,
  method: string,
  path: string,
  chunks: readonly Buffer[],
  headers: Readonly<Record<string, string>>,
): Promise<StreamedAnswer> =>
  new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port: api.server.port,
        method,
        path,
        headers,
        ca: api.server.cert,
        servername: 'localhost',
        agent: false,
      },
      (res) => {
        const received: Buffer[] = [];
        res.on('data', (c: Buffer) => received.push(c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(received).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    // The server may close the connection while we are still writing: the answer counts.
    req.on('error', (e) => {
      if (!req.writableEnded) req.destroy();
      reject(e);
    });
    const write = (i: number): void => {
      const chunk = chunks[i];
      if (chunk === undefined) {
        req.end();
        return;
      }
      if (req.destroyed) return;
      if (req.write(chunk)) write(i + 1);
      else
        req.once('drain', () => {
          write(i + 1);
        });
    };
    write(0);
  });

/** Writes raw bytes on a TLS connection and answers everything the server sent back until it closed. */
export const rawTlsExchange = (api: Api, bytes: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: api.server.port, ca: api.server.cert, servername: 'localhost' },
      () => {
        socket.write(bytes);
      },
    );
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('end', () => {
      resolve(Buffer.concat(received).toString('utf8'));
    });
    socket.on('error', reject);
    socket.setTimeout(5_000, () => {
      socket.destroy(new Error('no answer within 5 s'));
    });
  });
