import * as E from 'fp-ts/lib/Either.js';
import type { QueryIssue } from '../errors.js';
import { tokenize } from '../tokenizer.js';
import type { TicketFieldDefinition } from './definition.js';
import { customFieldLimits as limits, isRangeType, isSortableType, isTextType, type FieldType } from './field-type.js';
import { compilePattern } from './pattern.js';
import { isCalendarDate, isDecimal } from './value-codecs.js';
import { compareCustomScalars, type CustomScalar, type CustomValue, type CustomValues } from './value.js';

// Queries on custom fields (contract §10): `cf.<key>=<values>` (a comma list is OR; `none`
// is unset; a multiselect must hold ALL listed values), `cf.<key>.gte` / `.lte` for
// integer, decimal and date, `sort=cf.<key>` (unset last in both directions), and `q` over
// the words of text, textarea and regexp values. This is the one home of their meaning;
// every store is held to `matchesCustom` and `compareCustom` by the contract suite.

/** A custom field's condition, by the definition's id. */
export type CustomCondition =
  | {
      readonly kind: 'in';
      readonly fieldId: number;
      /** multiselect: the ticket holds every one of `values`; else one of them. */
      readonly all: boolean;
      readonly values: readonly CustomScalar[];
      /** Unset matches too. */
      readonly none: boolean;
    }
  | {
      readonly kind: 'range';
      readonly fieldId: number;
      readonly gte: number | string | null;
      readonly lte: number | string | null;
    };

/** A query parameter on a custom field, as the edge read it: `cf.<key>` (eq) or `cf.<key>.gte` / `.lte`. */
export interface CustomFilterParam {
  readonly parameter: string;
  readonly key: string;
  readonly op: 'eq' | 'gte' | 'lte';
  /** The comma-separated values (a repeated parameter joined by commas). */
  readonly value: string;
}

/** The sort field of a custom field: by id, so a store needs no definition to sort. */
export type CustomSortField = `cf:${number}`;
export const customSortField = (fieldId: number): CustomSortField => `cf:${fieldId}`;
export const isCustomSortField = (f: string): f is CustomSortField => f.startsWith('cf:');
export const customSortFieldId = (f: CustomSortField): number => Number(f.slice(3));

/** One value of a query on a field of this type, or why it cannot be one. */
export const parseCustomScalar = (def: TicketFieldDefinition, raw: string): E.Either<string, CustomScalar> => {
  switch (def.type) {
    case 'text':
    case 'textarea':
      return raw.length <= limits.textarea ? E.right(raw) : E.left('is too long to be a value of this field');
    case 'regexp': {
      const test = compilePattern(def.pattern ?? '');
      return E.isRight(test) && test.right(raw) ? E.right(raw) : E.left(`does not match ${def.pattern ?? ''}`);
    }
    case 'integer': {
      const n = /^-?(0|[1-9][0-9]*)$/.test(raw) ? Number(raw) : NaN;
      return Number.isSafeInteger(n) ? E.right(n === 0 ? 0 : n) : E.left('is not an integer');
    }
    case 'decimal': {
      const n = /^-?(0|[1-9][0-9]*)(\.[0-9]{1,4})?$/.test(raw) ? Number(raw) : NaN;
      return isDecimal(n) ? E.right(n === 0 ? 0 : n) : E.left('is not a decimal with at most 4 decimals');
    }
    case 'date':
      return isCalendarDate(raw) ? E.right(raw) : E.left('is not a date YYYY-MM-DD');
    case 'checkbox':
      return raw === 'true' ? E.right(true) : raw === 'false' ? E.right(false) : E.left('is not true or false');
    case 'dropdown':
    case 'multiselect':
      return def.options.some((o) => o.value === raw)
        ? E.right(raw)
        : E.left(`is not an option of this field (${def.options.map((o) => o.value).join(', ')})`);
  }
};

const maxValues = 100;

/**
 * The conditions of a query's custom field parameters, each against the definition of its
 * key among those the caller sees (`defs`); every unknown key and malformed value is an issue.
 */
export const customConditions = (
  defs: readonly TicketFieldDefinition[],
  params: readonly CustomFilterParam[],
): E.Either<QueryIssue[], CustomCondition[]> => {
  const issues: QueryIssue[] = [];
  const out: CustomCondition[] = [];
  const ranges = new Map<number, { gte: number | string | null; lte: number | string | null }>();
  for (const p of params) {
    const def = defs.find((d) => d.key === p.key);
    const bad = (value: string, message: string): void => {
      issues.push({ parameter: p.parameter, value, message });
    };
    if (def === undefined) {
      bad(p.key, `no ticket field "${p.key}" (GET /v1/ticket_fields lists them)`);
      continue;
    }
    const items = p.value.split(',');
    if (items.length > maxValues) {
      bad(p.value, `at most ${maxValues} values`);
      continue;
    }
    if (p.op !== 'eq') {
      if (!isRangeType(def.type)) {
        bad(p.parameter, `.gte and .lte apply to integer, decimal and date fields; ${p.key} is a ${def.type} field`);
        continue;
      }
      const [only] = items;
      const v = items.length === 1 && only !== undefined ? parseCustomScalar(def, only) : E.left('must be one value');
      if (E.isLeft(v)) {
        bad(p.value, `${JSON.stringify(p.value)} ${v.left}`);
        continue;
      }
      const r = ranges.get(def.id) ?? { gte: null, lte: null };
      const bound = v.right as number | string;
      if (p.op === 'gte') r.gte = r.gte === null || compareCustomScalars(bound, r.gte) > 0 ? bound : r.gte;
      else r.lte = r.lte === null || compareCustomScalars(bound, r.lte) < 0 ? bound : r.lte;
      ranges.set(def.id, r);
      continue;
    }
    let none = false;
    const values: CustomScalar[] = [];
    let ok = true;
    for (const item of items) {
      if (item === '') {
        bad(p.value, 'holds an empty value');
        ok = false;
      } else if (item === 'none') none = true;
      else {
        const v = parseCustomScalar(def, item);
        if (E.isLeft(v)) {
          bad(item, `${JSON.stringify(item)} ${v.left}`);
          ok = false;
        } else if (!values.includes(v.right)) values.push(v.right);
      }
    }
    if (ok) out.push({ kind: 'in', fieldId: def.id, all: def.type === 'multiselect', values, none });
  }
  for (const [fieldId, r] of ranges) out.push({ kind: 'range', fieldId, ...r });
  return issues.length > 0 ? E.left(issues) : E.right(out);
};

/** The reference meaning of a custom field condition. */
export const matchesCustom = (c: CustomCondition, values: CustomValues): boolean => {
  const v = values[c.fieldId];
  if (c.kind === 'range') {
    if (v === undefined || Array.isArray(v)) return false;
    const s = v as CustomScalar;
    return (
      (c.gte === null || compareCustomScalars(s, c.gte) >= 0) && (c.lte === null || compareCustomScalars(s, c.lte) <= 0)
    );
  }
  if (v === undefined) return c.none;
  if (c.values.length === 0) return false;
  if (c.all) return Array.isArray(v) && c.values.every((x) => (v as readonly string[]).includes(x as string));
  return c.values.includes(v as CustomScalar);
};

/** Whether `sort=cf.<key>` may sort by this field; the message when not. */
export const customSortRefusal = (def: TicketFieldDefinition): string | null =>
  isSortableType(def.type) ? null : `cannot sort by ${def.key}: ${def.type} fields are not sortable`;

/** The sort key of a ticket for a custom field: its value, or null when unset (or a list). */
export const customSortKey = (values: CustomValues, fieldId: number): CustomScalar | null => {
  const v: CustomValue | undefined = values[fieldId];
  return v === undefined || Array.isArray(v) ? null : (v as CustomScalar);
};

/** The words `q` finds a ticket by in the values of these (text) fields. */
export const customWords = (values: CustomValues, fieldIds: readonly number[]): string[] => {
  const words: string[] = [];
  for (const id of fieldIds) {
    const v = values[id];
    if (typeof v === 'string') words.push(...tokenize(v));
  }
  return words;
};

/** The ids of the fields whose words `q` searches, among those a caller sees. */
export const searchedFieldIds = (defs: readonly TicketFieldDefinition[]): number[] =>
  defs.filter((d) => isTextType(d.type)).map((d) => d.id);

export type { FieldType };
