import { expect } from 'chai';
import type { Answer, Api } from '../harness.js';
import { groupView, liveTickets, ticketView, userView, type Change, type Model } from './model.js';

// The checks after every step of a sequence: the change feed appended exactly the step's
// changes (numbered on without a gap, each carrying the resource as it now reads); every
// changed resource reads as the model says, under a new ETag (If-None-Match with the old
// one is 200, never a stale 304); a resource the step did not change still answers 304; and
// each list (tickets, users, groups) holds exactly the live resources, its X-Total-Count
// their number, its ETag new exactly when its content changed.

export interface Real {
  readonly api: Api;
  readonly admin: string;
}

type Json = Record<string, unknown>;

const pathOf = (url: unknown): string => new URL(String(url)).pathname;
const linkId = (v: unknown): number | null => (v === null || v === undefined ? null : (v as { id: number }).id);

/** The fields of an answer the model knows, in the model's view shape. */
const viewOf = (path: string, json: Json): Json => {
  if (/^\/v1\/tickets\/\d+$/.test(path)) {
    return {
      id: json.id,
      subject: json.subject,
      summary: json.summary,
      state: json.state,
      priority: json.priority,
      customer_name: json.customer_name,
      customer: linkId(json.customer),
      assigned_user: linkId(json.assigned_user),
      group: linkId(json.group),
      tags: json.tags,
      created_at: json.created_at,
      updated_at: json.updated_at,
      closed_at: json.closed_at,
      allowed_transitions: json.allowed_transitions,
    };
  }
  if (/^\/v1\/users\/\d+$/.test(path))
    return {
      id: json.id,
      name: json.name,
      email: json.email,
      role: json.role,
      groups: (json.groups as Json[]).map(linkId),
    };
  if (/^\/v1\/groups\/\d+$/.test(path)) return { id: json.id, name: json.name, description: json.description };
  return { id: json.id, body: json.body, internal: json.internal };
};

/** What the model says a resource path reads as now: a view, or the status of a resource that is gone. */
const modelRead = (m: Model, path: string): Json | 404 | 410 => {
  const [, , kind, a, , b] = path.split('/');
  const id = Number(a);
  if (kind === 'tickets' && b !== undefined) {
    const t = m.tickets.get(id);
    const msg = m.messages.find((x) => x.ticketId === id && x.number === Number(b));
    if (t === undefined || msg === undefined) return 404;
    return t.deletedAt !== null || msg.deleted ? 410 : { id: msg.number, body: msg.body, internal: msg.internal };
  }
  if (kind === 'tickets') {
    const t = m.tickets.get(id);
    if (t === undefined) return 404;
    return t.deletedAt === null ? ticketView(t) : 410;
  }
  if (kind === 'users') {
    const u = m.users.get(id);
    return u === undefined ? 404 : userView(u);
  }
  const g = m.groups.get(id);
  return g === undefined ? 404 : groupView(g);
};

const expectOk = (a: Answer, status: number, what: string): void => {
  expect(a.status, `${what}: ${a.text.slice(0, 400)}`).to.equal(status);
};

interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly resource: { readonly url: string };
  readonly data: Json | null;
}

/** Reads every event after `after` (a step appends a handful; 100 a page). */
const eventsAfter = async (r: Real, after: number): Promise<FeedEvent[]> => {
  const out: FeedEvent[] = [];
  for (let cursor = after; ;) {
    const a = await r.api.get(`/v1/events?after=${cursor}&per_page=100`, { token: r.admin });
    expectOk(a, 200, 'GET /v1/events');
    const page = a.json as FeedEvent[];
    if (page.length === 0) return out;
    out.push(...page);
    cursor = page[page.length - 1]!.seq;
  }
};

/**
 * Reads a resource as an admin, revalidating with the ETag last seen: 304 exactly when the
 * model's view of it is what it was then (a write in the same millisecond as the last one
 * may leave a representation as it was), else 200 with a new ETag and the model's view.
 */
const readBack = async (m: Model, r: Real, path: string): Promise<Answer> => {
  const old = m.etags.get(path);
  const a = await r.api.get(path, { token: r.admin, headers: old === undefined ? {} : { 'If-None-Match': old.etag } });
  const expected = modelRead(m, path);
  if (typeof expected === 'number') {
    expectOk(a, expected, `GET ${path} (gone)`);
    m.etags.delete(path);
    return a;
  }
  const view = JSON.stringify(expected);
  if (old !== undefined && old.view === view) {
    expectOk(a, 304, `GET ${path} with the ETag of before a step that left it as it was`);
    return a;
  }
  // A changed resource must not revalidate: its old ETag is stale.
  expectOk(a, 200, `GET ${path}${old === undefined ? '' : ' with the ETag of before it changed'}`);
  const etag = a.header('etag');
  expect(etag, `${path}: ETag`).to.be.a('string');
  expect(etag, `${path}: the ETag did not change with the representation`).not.to.equal(old?.etag);
  expect(viewOf(path, a.json as Json), `GET ${path}`).to.deep.equal(expected);
  m.etags.set(path, { etag: etag!, view });
  return a;
};

/** A list read as an admin: every live resource once, X-Total-Count, an ETag that is new exactly when the content is. */
const checkList = async (m: Model, r: Real, path: string, items: readonly Json[]): Promise<void> => {
  const old = m.etags.get(path);
  const view = JSON.stringify(items);
  const a = await r.api.get(path, { token: r.admin, headers: old === undefined ? {} : { 'If-None-Match': old.etag } });
  if (old !== undefined && old.view === view) {
    expectOk(a, 304, `GET ${path} (unchanged since it was last read)`);
    return;
  }
  expectOk(a, 200, `GET ${path}${old === undefined ? '' : ' (changed since it was last read)'}`);
  expect(
    (a.json as Json[]).map((x) => x.id),
    `GET ${path}: the items`,
  ).to.deep.equal(items.map((x) => x.id));
  expect(a.header('x-total-count'), `GET ${path}: X-Total-Count`).to.equal(String(items.length));
  expect(a.header('etag'), `GET ${path}: a list that changed kept its ETag`).not.to.equal(old?.etag);
  m.etags.set(path, { etag: a.header('etag')!, view });
};

const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id;

/** Everything checked after a step that made `changes` (none for a read or a refused write). */
export const afterStep = async (m: Model, r: Real, changes: readonly Change[]): Promise<void> => {
  const events = await eventsAfter(r, m.seq);
  const appended = events.map((e) => ({ type: e.type, path: pathOf(e.resource.url) }));
  expect(appended, 'the change feed after the step').to.have.deep.members(changes.map((c) => ({ ...c })));
  expect(
    events.map((e) => e.seq),
    'seqs numbered on without a gap',
  ).to.deep.equal(events.map((_, i) => m.seq + 1 + i));
  m.seq += events.length;

  const changedPaths = new Set(changes.map((c) => c.path));
  for (const path of changedPaths) {
    const revalidated = await readBack(m, r, path);
    const event = events.filter((e) => pathOf(e.resource.url) === path).at(-1);
    if (event === undefined) continue;
    // Each event carries the resource as it reads after the change (null once it is gone).
    const a = revalidated.status === 304 ? await r.api.get(path, { token: r.admin }) : revalidated;
    expect(event.data, `the event's data for ${path}`).to.deep.equal(a.status === 200 ? a.json : null);
  }
  // Two resources the step did not name still revalidate (their ETag is not stale either way).
  const resources = [...m.etags.keys()].filter((p) => !p.includes('?'));
  for (const path of resources.filter((p) => !changedPaths.has(p)).slice(0, 2)) await readBack(m, r, path);

  await checkList(m, r, '/v1/tickets?per_page=100&sort=id', liveTickets(m).sort(byId).map(ticketView));
  await checkList(m, r, '/v1/users?per_page=100', [...m.users.values()].sort(byId).map(userView));
  await checkList(m, r, '/v1/groups?per_page=100', [...m.groups.values()].sort(byId).map(groupView));
};
