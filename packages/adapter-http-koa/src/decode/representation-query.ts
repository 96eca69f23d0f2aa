import {
  fieldKeyPattern,
  customFieldLimits,
  ticketRelations,
  type QueryIssue,
  type TicketRelation,
} from '@support/domain';
import {
  embeddable,
  ticketFields,
  type EmbedSelection,
  type EmbedSpec,
  type RepresentationOptions,
  type TicketField,
} from '../representations/fields.js';
import { commaList, issue, param, type QueryParams } from './query-params.js';
import { ticketNames } from '../resources/tickets.js';

// `fields` and `embed`: which fields a ticket representation shows and which related
// resources it expands. Both apply to lists and single reads.

const isOneOf = <V extends string>(values: readonly V[], s: string | undefined): s is V =>
  s !== undefined && (values as readonly string[]).includes(s);
/** The relations by the API's names, for messages. */
const embeddableNames = ticketRelations.map(ticketNames.toWire).join(', ');

/** A custom field's key as a query names it (`cf.<key>`), or null when the name is no such key. */
export const customKey = (name: string): string | null => {
  const key = name.slice(3);
  return name.startsWith('cf.') && key.length <= customFieldLimits.key.max && fieldKeyPattern.test(key) ? key : null;
};

export const parseFields = (
  params: QueryParams,
  issues: QueryIssue[],
): { readonly fields: readonly TicketField[] | null; readonly customKeys: readonly string[] } => {
  const raw = param(params, 'fields');
  if (raw === undefined) return { fields: null, customKeys: [] };
  const out: TicketField[] = [];
  const customKeys: string[] = [];
  for (const name of commaList('fields', raw, issues)) {
    const key = customKey(name);
    if (key !== null) {
      if (!customKeys.includes(key)) customKeys.push(key);
    } else if (!isOneOf(ticketFields, name)) {
      issues.push(
        issue(
          'fields',
          name,
          `unknown field "${name}"; fields are: ${ticketFields.join(', ')}, cf.<key> (a ticket field)`,
        ),
      );
    } else if (!out.includes(name)) out.push(name);
  }
  return { fields: out, customKeys };
};

export const parseEmbed = (params: QueryParams, issues: QueryIssue[]): EmbedSpec => {
  const raw = param(params, 'embed');
  if (raw === undefined) return {};
  const spec: Partial<Record<TicketRelation, EmbedSelection>> = {};
  for (const item of commaList('embed', raw, issues)) {
    const [name = '', sub, ...rest] = item.split('.');
    const relation = ticketNames.toDomain(name);
    if (!isOneOf(ticketRelations, relation)) {
      issues.push(issue('embed', item, `cannot embed "${name}"; embeddable: ${embeddableNames}`));
      continue;
    }
    if (sub === undefined) {
      spec[relation] = 'all';
      continue;
    }
    const allowed: readonly string[] = embeddable[relation];
    if (rest.length > 0 || !allowed.includes(sub)) {
      issues.push(issue('embed', item, `"${item}" names no field of ${name}; its fields are: ${allowed.join(', ')}`));
      continue;
    }
    const current = spec[relation];
    if (current === 'all') continue;
    spec[relation] = current === undefined ? [sub] : current.includes(sub) ? current : [...current, sub];
  }
  return spec;
};

export const parseRepresentationOptions = (params: QueryParams, issues: QueryIssue[]): RepresentationOptions => ({
  ...parseFields(params, issues),
  embed: parseEmbed(params, issues),
});

/** The related resources an `embed` asks to load, in their canonical order. */
export const relationsOf = (embed: EmbedSpec): TicketRelation[] =>
  ticketRelations.filter((r) => embed[r] !== undefined);
