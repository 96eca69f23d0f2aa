import * as E from 'fp-ts/lib/Either.js';
import { toFieldErrors } from '../codecs/field-codecs.js';
import { fieldError, type FieldError } from '../errors.js';
import type { TicketFieldDefinition } from './definition.js';
import { customValueCodec } from './value-codecs.js';
import { sameCustomValue, type CustomValue, type CustomValues } from './value.js';

// A ticket body's `custom_fields` (contract §10), keyed by the fields' keys: POST and PUT
// give the whole object (an omitted key is unset), PATCH (merge patch) only the keys it
// changes. Every bad key is one error named `customFields.<key>`; a refused body changes
// nothing. A customer knows only the customer_visible fields and writes only the
// customer_editable ones; `required` binds agents and admins creating or replacing.

export type CustomFieldsWrite = 'create' | 'replace' | 'patch';
export type CustomFieldsWriter = 'customer' | 'staff';

/** What a body gave: the object by key, null (every field unset), or nothing. */
export type CustomFieldsGiven = Readonly<Record<string, unknown>> | null;

export const customFieldName = (key: string): string => `customFields.${key}`;

/** The definitions a caller sees (customers: the customer_visible ones), in the given order. */
export const visibleFields = (
  defs: readonly TicketFieldDefinition[],
  who: CustomFieldsWriter,
): readonly TicketFieldDefinition[] => (who === 'staff' ? defs : defs.filter((d) => d.customerVisible));

const writable = (d: TicketFieldDefinition, who: CustomFieldsWriter): boolean => who === 'staff' || d.customerEditable;

/**
 * A ticket's values after a write, or every refused key. `current` are its values before
 * ({} for a new ticket); values of fields no longer defined are dropped.
 */
export const writeCustomValues = (
  defs: readonly TicketFieldDefinition[],
  current: CustomValues,
  given: CustomFieldsGiven | undefined,
  mode: CustomFieldsWrite,
  who: CustomFieldsWriter,
): E.Either<FieldError[], CustomValues> => {
  const errors: FieldError[] = [];
  const byKey = new Map(visibleFields(defs, who).map((d) => [d.key, d]));
  const decoded = new Map<number, CustomValue | null>();
  if (given !== undefined && given !== null) {
    for (const [key, raw] of Object.entries(given)) {
      const def = byKey.get(key);
      if (def === undefined) {
        errors.push(fieldError(customFieldName(key), 'unknown_field', 'is not a ticket field (GET /v1/ticket_fields)'));
        continue;
      }
      const r = customValueCodec(def).decode(raw);
      if (E.isLeft(r)) {
        for (const e of toFieldErrors(r.left)) errors.push({ ...e, field: customFieldName(key) });
        continue;
      }
      const value = r.right;
      if (!writable(def, who) && !sameCustomValue(value ?? undefined, current[def.id])) {
        errors.push(fieldError(customFieldName(key), 'not_permitted', 'customers may not write this field'));
        continue;
      }
      decoded.set(def.id, value);
    }
  }
  const out: Record<string, CustomValue> = {};
  for (const def of defs) {
    let value: CustomValue | null | undefined = current[def.id];
    const mayWrite = byKey.has(def.key) && writable(def, who);
    if (decoded.has(def.id)) value = decoded.get(def.id);
    else if (mayWrite && (mode !== 'patch' || given === null)) value = null;
    if (mode !== 'patch' && who === 'staff' && def.required && (value === null || value === undefined))
      errors.push(fieldError(customFieldName(def.key), 'required', 'is required (a required ticket field)'));
    if (value !== null && value !== undefined) out[def.id] = value;
  }
  return errors.length > 0 ? E.left(errors) : E.right(out);
};

/** The values a caller sees, by key, null when unset: one member per field they may see. */
export const shownCustomValues = (
  shown: readonly TicketFieldDefinition[],
  values: CustomValues,
  only: readonly string[] | null = null,
): Record<string, CustomValue | null> => {
  const out: Record<string, CustomValue | null> = {};
  for (const d of shown) if (only === null || only.includes(d.key)) out[d.key] = values[d.id] ?? null;
  return out;
};
