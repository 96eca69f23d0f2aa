import type { QueryIssue } from '../errors.js';
import { commaList, issue, param, type QueryParams } from './params.js';

// `fields` and `embed`: which fields a ticket representation shows and which related
// resources it expands. Both apply to lists and single reads.

export const ticketFields = [
  'id',
  'url',
  'subject',
  'summary',
  'state',
  'priority',
  'customer',
  'customer_name',
  'assigned_user',
  'group',
  'tags',
  'created_at',
  'updated_at',
  'closed_at',
  'messages_url',
] as const;
export type TicketField = (typeof ticketFields)[number];

export const userFields = ['id', 'url', 'name', 'email', 'role', 'groups', 'created_at', 'updated_at'] as const;
export const groupFields = ['id', 'url', 'name', 'description', 'users_url', 'created_at', 'updated_at'] as const;

export const embeddable = {
  customer: userFields,
  assigned_user: userFields,
  group: groupFields,
} as const;
export type EmbedRelation = keyof typeof embeddable;
const relations = Object.keys(embeddable) as EmbedRelation[];

/** 'all' expands the whole related resource; a list of sub-fields adds just those to the link object. */
export type EmbedSelection = 'all' | readonly string[];
export type EmbedSpec = Readonly<Partial<Record<EmbedRelation, EmbedSelection>>>;

export interface RepresentationOptions {
  /** null: every field. */
  readonly fields: readonly TicketField[] | null;
  readonly embed: EmbedSpec;
}

const isOneOf = <V extends string>(values: readonly V[], s: string): s is V => (values as readonly string[]).includes(s);

export const parseFields = (params: QueryParams, issues: QueryIssue[]): readonly TicketField[] | null => {
  const raw = param(params, 'fields');
  if (raw === undefined) return null;
  const out: TicketField[] = [];
  for (const name of commaList('fields', raw, issues)) {
    if (!isOneOf(ticketFields, name)) {
      issues.push(issue('fields', name, `unknown field "${name}"; fields are: ${ticketFields.join(', ')}`));
    } else if (!out.includes(name)) out.push(name);
  }
  return out;
};

export const parseEmbed = (params: QueryParams, issues: QueryIssue[]): EmbedSpec => {
  const raw = param(params, 'embed');
  if (raw === undefined) return {};
  const spec: Partial<Record<EmbedRelation, EmbedSelection>> = {};
  for (const item of commaList('embed', raw, issues)) {
    const [relation = '', sub, ...rest] = item.split('.');
    if (!isOneOf(relations, relation)) {
      issues.push(issue('embed', item, `cannot embed "${relation}"; embeddable: ${relations.join(', ')}`));
      continue;
    }
    if (sub === undefined) {
      spec[relation] = 'all';
      continue;
    }
    const allowed: readonly string[] = embeddable[relation];
    if (rest.length > 0 || !allowed.includes(sub)) {
      issues.push(issue('embed', item, `"${item}" names no field of ${relation}; its fields are: ${allowed.join(', ')}`));
      continue;
    }
    const current = spec[relation];
    if (current === 'all') continue;
    spec[relation] = current === undefined ? [sub] : current.includes(sub) ? current : [...current, sub];
  }
  return spec;
};

export const parseRepresentationOptions = (params: QueryParams, issues: QueryIssue[]): RepresentationOptions => ({
  fields: parseFields(params, issues),
  embed: parseEmbed(params, issues),
});
