import { expect } from 'chai';
import type { Answer, Api } from './harness.js';

// Small helpers for the resource tests: typed bodies, paths of emitted URLs, ticket builders.

export type Json = Record<string, unknown>;

export interface FieldError {
  readonly code: number;
  readonly field: string;
  readonly message: string;
}

/** The body of an answer as one JSON object. */
export const obj = (a: Answer): Json => {
  expect(a.json, a.text).to.be.an('object').and.not.be.an('array');
  return a.json as Json;
};

/** The body of an answer as a bare JSON array of objects. */
export const arr = (a: Answer): Json[] => {
  expect(a.json, a.text).to.be.an('array');
  return a.json as Json[];
};

/** The `errors[]` of a 422, sorted by field. */
export const fieldErrors = (a: Answer): FieldError[] => {
  expect(a.status, a.text).to.equal(422);
  const body = obj(a);
  expect(body.code).to.equal(42200);
  expect(body.errors).to.be.an('array');
  return [...(body.errors as FieldError[])].sort((x, y) => x.field.localeCompare(y.field));
};

/** The path (and query) of an absolute URL the API emitted, for the test client. */
export const pathOf = (url: unknown): string => {
  expect(url).to.be.a('string');
  const u = new URL(url as string);
  return `${u.pathname}${u.search}`;
};

export const idOf = (a: Answer): number => obj(a).id as number;

export interface TicketInput {
  readonly subject?: string;
  readonly summary?: string;
  readonly priority?: string;
  readonly customer_id?: number;
  readonly assigned_user_id?: number | null;
  readonly group_id?: number | null;
  readonly tags?: readonly string[];
}

/** Creates a ticket and answers its representation (fails the test unless 201). */
export const createTicket = async (api: Api, token: string, input: TicketInput): Promise<Json> => {
  const a = await api.post('/v1/tickets', { subject: 'A ticket', ...input }, { token });
  expect(a.status, a.text).to.equal(201);
  return obj(a);
};

export const patchJson = (
  api: Api,
  path: string,
  body: unknown,
  token: string,
  headers: Record<string, string> = {},
): Promise<Answer> =>
  api.request('PATCH', path, {
    token,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
  });

/** Parses a Link header into rel → absolute URL. */
export const linkRels = (header: string | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  if (header === undefined) return out;
  for (const m of header.matchAll(/<([^>]*)>\s*;\s*rel="([^"]+)"/g)) out[m[2]!] = m[1]!;
  return out;
};

export const isoMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
