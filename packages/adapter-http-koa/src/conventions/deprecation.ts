import { formatHttpDate } from './http-date.js';

// The published schedule of deprecated behaviour (GET /v1/deprecations). A deprecated
// route answers as usual plus Deprecation (RFC 9745: when it was deprecated), Sunset
// (RFC 8594: when it stops working) and Link rel="deprecation" to the schedule entry.

export interface Deprecation {
  readonly id: string;
  readonly description: string;
  /** ISO 8601 instants. */
  readonly deprecatedAt: string;
  readonly sunsetAt: string;
  readonly replacement: string;
}

export type DeprecationSchedule = readonly Deprecation[];

export const singularTicketAlias = 'ticket-singular-alias';

export const defaultDeprecations: DeprecationSchedule = [
  {
    id: singularTicketAlias,
    description:
      'GET /v1/ticket/{ticket_id} (singular; the spelling of the embed example in the original specification) is an alias of GET /v1/tickets/{ticket_id}',
    deprecatedAt: '2026-11-01T00:00:00Z',
    sunsetAt: '2027-05-01T00:00:00Z',
    replacement: 'GET /v1/tickets/{ticket_id}',
  },
];

export const deprecationDocUrl = (publicUrl: string, d: Deprecation): string => `${publicUrl}/v1/deprecations#${d.id}`;

export const deprecationHeaders = (publicUrl: string, d: Deprecation): Record<string, string> => ({
  Deprecation: `@${Math.floor(Date.parse(d.deprecatedAt) / 1000)}`,
  Sunset: formatHttpDate(Date.parse(d.sunsetAt)),
  Link: `<${deprecationDocUrl(publicUrl, d)}>; rel="deprecation"; type="application/json"`,
});

/** The schedule as served. */
export const deprecationRepresentation = (publicUrl: string, d: Deprecation): Record<string, unknown> => ({
  id: d.id,
  description: d.description,
  deprecated_at: new Date(d.deprecatedAt).toISOString(),
  sunset_at: new Date(d.sunsetAt).toISOString(),
  replacement: d.replacement,
  url: deprecationDocUrl(publicUrl, d),
});
