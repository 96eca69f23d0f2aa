import { expect } from 'chai';
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
export const createTicket = async (api: Api, token: string, customerId: number, fields: Readonly<Record<string, unknown>> = {}): Promise<CreatedTicket> => {
  ticketCounter += 1;
  const a = await api.post(
    '/v1/tickets',
    { subject: `Ticket ${ticketCounter}`, summary: `Summary of ticket ${ticketCounter}`, customer_id: customerId, ...fields },
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
export const imfFixdate = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
