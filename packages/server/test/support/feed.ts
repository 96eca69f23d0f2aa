import { expect } from 'chai';
import type { Answer, Api } from './harness.js';
import { arr, linkRels, pathOf, type Json } from './resources.js';

// Reading the change feed (GET /v1/events) in the feed suites (http/events*.test.ts).

export interface FeedEvent {
  readonly seq: number;
  readonly type: string;
  readonly occurred_at: string;
  readonly resource: { readonly type: string; readonly id: number; readonly url: string };
  readonly data: Json | null;
}

/** [type, resource type, resource id]: what a client tells an event by. */
export type Change = readonly [string, string, number];

export const events = (a: Answer): FeedEvent[] => {
  expect(a.status, a.text).to.equal(200);
  return arr(a) as unknown as FeedEvent[];
};

/** Every event after `after`, following Link rel="next" until a page comes back empty. */
export const readAll = async (api: Api, token: string, after: number): Promise<FeedEvent[]> => {
  const out: FeedEvent[] = [];
  let path = `/v1/events?after=${after}&per_page=100`;
  for (;;) {
    const a = await api.get(path, { token });
    const page = events(a);
    if (page.length === 0) return out;
    out.push(...page);
    path = pathOf(linkRels(a.header('link')).next);
  }
};

export const newestSeq = async (api: Api, token: string): Promise<number> =>
  (await readAll(api, token, 0)).at(-1)?.seq ?? 0;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
