// The API's field names (contract: snake_case) for the domain's (camelCase), one table per
// resource, and the only place where the two meet. The decoders read a body's and a query's
// wire names into the domain's; the answers of a refused write (field errors, refused fields)
// name the wire's again. A name a table does not list is the same in both (subject, state).

import type { FieldError } from '@support/domain';

export interface WireNames {
  /** The API's name for a field of the domain (a dotted path's first part: `groupIds.1` is `group_ids.1`). */
  readonly toWire: (domain: string) => string;
  /**
   * The domain's name for a name the API gives: listed, its domain name; a domain name that the
   * API spells otherwise (customerId) is no name of the API: undefined; any other, as it is.
   */
  readonly toDomain: (wire: string) => string | undefined;
}

/** The API's name of a domain field K under a table T (none: alike), a type for the document's body schemas. */
export type WireName<K, T extends Readonly<Record<string, string>> | undefined> = T extends object
  ? K extends keyof T
    ? T[K]
    : K
  : K;

export const wireNames = (table: Readonly<Record<string, string>>): WireNames => {
  const toWire = new Map(Object.entries(table));
  const toDomain = new Map(Object.entries(table).map(([domain, wire]) => [wire, domain]));
  return {
    toWire: (domain) => {
      const dot = domain.indexOf('.');
      const head = dot < 0 ? domain : domain.slice(0, dot);
      const wire = toWire.get(head);
      return wire === undefined ? domain : `${wire}${dot < 0 ? '' : domain.slice(dot)}`;
    },
    toDomain: (wire) => toDomain.get(wire) ?? (toWire.has(wire) ? undefined : wire),
  };
};

/** The API's name of a refused field: unknown and read-only keys are named as the body sent them. */
export const wireField = (names: WireNames, f: FieldError): string =>
  (f.code === 'unknown_field' || f.code === 'read_only') && !f.field.startsWith('customFields.')
    ? f.field
    : names.toWire(f.field);

/** Fields named alike in the API and in the domain (messages, groups, webhooks). */
export const sameNames: WireNames = wireNames({});

// A ticket's names are read from its field table (resources/tickets.ts: ticketNames), a custom
// field definition's from its own (resources/ticket-fields.ts: ticketFieldNames).
