import type { QueryParams } from '../../src/decode/query-params.js';
import { decodeTicketList } from '../../src/decode/ticket-query.js';
import type { RepresentationOptions } from '../../src/representations/fields.js';
import { issuePairs, leftOf, rightOf } from './decoding.js';

// The ticket list query as the decode tests read it (decode/ticket-query*.test.ts).

export const parse = (params: QueryParams) => rightOf(decodeTicketList(params).query);
export const shown = (params: QueryParams): RepresentationOptions => decodeTicketList(params).shown;

/** The [parameter, value] pairs of a refused query; fails the test if the query was accepted. */
export const issuesOf = (params: QueryParams): Array<[string, string]> =>
  issuePairs(leftOf(decodeTicketList(params).query));
