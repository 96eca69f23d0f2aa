import type { Related, TicketView } from '@support/application';
import type { CacheableBody } from '../reply.js';
import { ticketRepresentation } from './ticket.js';
import type { RepresentationOptions } from './fields.js';
import type { Urls } from './urls.js';

// The response cache's keys for tickets (cache/response-cache.ts). A key names every input of
// ticketRepresentation: the ticket by id and version (every write moves the version: the
// domain's `revise`, the stores' compare-and-set), the states this caller may move it to
// (they depend on the caller's role), each related resource as this caller sees it, and
// `fields`/`embed`. The URL builder is the app's own and the cache is per app.

/** A related user or group: whole (at its version) or only id and name (a customer's view of another user). */
const relatedKey = (
  r: Related<{ readonly id: number; readonly version: number; readonly updatedAt: number }, number> | null | undefined,
): string => {
  if (r === undefined) return '';
  if (r === null) return '-';
  // The name is quoted so that no name can spell another key's separators.
  return r.kind === 'full'
    ? `${r.value.id}.${r.value.version}.${r.value.updatedAt}`
    : `${r.id}${JSON.stringify(r.name)}`;
};

/**
 * The custom fields a caller sees, each at its version: a definition's change (or deletion)
 * changes the representations it shows in without moving the tickets' versions.
 */
const fieldsKey = (v: TicketView): string => {
  const known = fieldsKeys.get(v.fields);
  if (known !== undefined) return known;
  if (Object.isFrozen(v.fields) && v.fields.every((d) => Object.isFrozen(d))) {
    frozenLists += 1;
    const key = `~${String(frozenLists)}`;
    fieldsKeys.set(v.fields, key);
    return key;
  }
  let key = '';
  for (const d of v.fields) key += `${d.id}.${d.version},`;
  return key;
};

/**
 * A short key per frozen list of frozen definitions (`~<n>`, never given to another list): such
 * a list cannot change, so it names its definitions and their versions as well as their ids and
 * versions spelled out would, in a few characters. The memory and embedded stores hand out one
 * such list until a definition changes (a new list, a new key), so a staff caller's requests
 * share one key instead of making and hashing ~20 definitions' worth per request
 * (bench:custom-fields' GET). A list made per request (a customer's visible ones, a store's
 * fresh copy) is spelled out and not kept: an entry per request would only churn the weak table.
 */
// Map: bounded: weak keys, one entry per frozen list of definitions still in use
const fieldsKeys = new WeakMap<readonly TicketView['fields'][number][], string>();
let frozenLists = 0;

/** One ticket as this caller sees it. */
export const ticketViewKey = (v: TicketView): string => {
  const t = v.ticket;
  const r = v.related;
  const base = `${t.id}.${t.version}.${t.updatedAt}.${v.allowedTransitions.join(',')}`;
  return r.customer === undefined && r.assignedUser === undefined && r.group === undefined
    ? base
    : `${base}(${relatedKey(r.customer)}|${relatedKey(r.assignedUser)}|${relatedKey(r.group)})`;
};

/** `fields` and `embed` as one string: `*` for every field, then each relation's selection. */
export const optionsKey = (o: RepresentationOptions): string => {
  let key = o.fields === null ? '*' : o.fields.join(',');
  if (o.customKeys.length > 0) key += `+cf.${o.customKeys.join(',cf.')}`;
  for (const [relation, selection] of Object.entries(o.embed))
    key += `;${relation}=${selection === 'all' ? '*' : selection.join(',')}`;
  return key;
};

/** A single ticket's body. */
export const cacheableTicket = (urls: Urls, v: TicketView, options: RepresentationOptions): CacheableBody => ({
  key: `ticket ${optionsKey(options)} ${fieldsKey(v)} ${ticketViewKey(v)}`,
  version: { of: `ticket:${v.ticket.id}`, is: v.ticket.version },
  build: () => ticketRepresentation(urls, v, options),
});

/** A page of tickets' body (the page's place and the total are render's to add to the key). */
export const cacheableTicketList = (
  urls: Urls,
  views: readonly TicketView[],
  options: RepresentationOptions,
): CacheableBody => {
  let key = `tickets ${optionsKey(options)}`;
  // One request's views share one set of fields.
  const [first] = views;
  if (first !== undefined) key += ` ${fieldsKey(first)}`;
  for (const v of views) key += ` ${ticketViewKey(v)}`;
  return { key, version: null, build: () => views.map((v) => ticketRepresentation(urls, v, options)) };
};
