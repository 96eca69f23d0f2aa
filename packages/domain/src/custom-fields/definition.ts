import * as E from 'fp-ts/lib/Either.js';
import { fieldError, type FieldError } from '../errors.js';
import type { TicketFieldId } from '../ids.js';
import { revise } from '../revision.js';
import { customFieldLimits as limits, hasOptions, type FieldType } from './field-type.js';
import { compilePattern } from './pattern.js';

// A custom ticket field as an admin defines it (contract §10): its key (unique, immutable),
// type (fixed), options or pattern, and who sees and edits it. Values live on the tickets,
// by the definition's id.

export interface FieldOption {
  readonly value: string;
  readonly title: string;
}

export interface TicketFieldDefinition {
  readonly id: TicketFieldId;
  readonly key: string;
  readonly title: string;
  readonly type: FieldType;
  readonly description: string;
  /** dropdown and multiselect: the values a ticket may hold; [] for the other types. */
  readonly options: readonly FieldOption[];
  /** regexp: the RE2 pattern a value must match; null for the other types. */
  readonly pattern: string | null;
  /** Required when an agent or admin creates or replaces a ticket. */
  readonly required: boolean;
  readonly customerVisible: boolean;
  readonly customerEditable: boolean;
  /** Where the field comes among the others (then by id). */
  readonly position: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

/** A new definition, once its body is decoded (types and limits are the edge's to check). */
export interface TicketFieldCreateInput {
  readonly key: string;
  readonly title: string;
  readonly type: FieldType;
  readonly description?: string;
  readonly options?: readonly FieldOption[];
  readonly pattern?: string | null;
  readonly required?: boolean;
  readonly customerVisible?: boolean;
  readonly customerEditable?: boolean;
  readonly position?: number;
}

/** A change (merge patch): `key`, `type` and `pattern` may be given only as they are. */
export interface TicketFieldPatchInput {
  readonly key?: string;
  readonly title?: string;
  readonly type?: FieldType;
  readonly description?: string | null;
  readonly options?: readonly FieldOption[];
  readonly pattern?: string | null;
  readonly required?: boolean;
  readonly customerVisible?: boolean;
  readonly customerEditable?: boolean;
  readonly position?: number;
}

/** Fields in the order they are shown: by position, then by id. */
export const byPosition = (a: TicketFieldDefinition, b: TicketFieldDefinition): number =>
  a.position - b.position || a.id - b.id;

/** The rules that tie a definition's members together: options only for option types, a pattern RE2 accepts for regexp, editable only when visible. */
const coherence = (d: Omit<TicketFieldDefinition, 'id' | 'createdAt' | 'updatedAt' | 'version'>): FieldError[] => {
  const errors: FieldError[] = [];
  if (hasOptions(d.type) && d.options.length === 0)
    errors.push(fieldError('options', 'required', `a ${d.type} field needs at least one option`));
  if (!hasOptions(d.type) && d.options.length > 0)
    errors.push(fieldError('options', 'invalid_value', `only dropdown and multiselect fields take options`));
  if (d.type === 'regexp') {
    if (d.pattern === null)
      errors.push(fieldError('pattern', 'required', 'a regexp field needs a pattern (RE2 syntax)'));
    else {
      const compiled = compilePattern(d.pattern);
      if (E.isLeft(compiled))
        errors.push(fieldError('pattern', 'invalid_value', `is not an RE2 pattern: ${compiled.left}`));
    }
  } else if (d.pattern !== null) {
    errors.push(fieldError('pattern', 'invalid_value', 'only regexp fields take a pattern'));
  }
  if (d.customerEditable && !d.customerVisible)
    errors.push(
      fieldError('customerEditable', 'invalid_value', 'a field customers may edit must be customer_visible too'),
    );
  const seen = new Set<string>();
  for (const [i, o] of d.options.entries()) {
    if (seen.has(o.value))
      errors.push(fieldError(`options.${i}.value`, 'not_unique', `option value "${o.value}" is listed twice`));
    seen.add(o.value);
  }
  return errors;
};

/**
 * A new definition, or why not. `position` defaults to after the last (`nextPosition`), an
 * option's title to its value.
 */
export const newTicketField = (
  id: TicketFieldId,
  input: TicketFieldCreateInput,
  nextPosition: number,
  now: number,
): E.Either<FieldError[], TicketFieldDefinition> => {
  const def: TicketFieldDefinition = {
    id,
    key: input.key,
    title: input.title,
    type: input.type,
    description: input.description ?? '',
    options: input.options ?? [],
    pattern: input.pattern ?? null,
    required: input.required ?? false,
    customerVisible: input.customerVisible ?? false,
    customerEditable: input.customerEditable ?? false,
    position: input.position ?? Math.min(nextPosition, limits.position),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const errors = coherence(def);
  return errors.length > 0 ? E.left(errors) : E.right(def);
};

/** The option values a change removes (a ticket holding one makes the change a conflict). */
export const removedOptions = (before: TicketFieldDefinition, after: TicketFieldDefinition): string[] =>
  before.options.filter((o) => !after.options.some((n) => n.value === o.value)).map((o) => o.value);

/** A changed definition, or why not: key, type and pattern are fixed. */
export const patchTicketField = (
  def: TicketFieldDefinition,
  input: TicketFieldPatchInput,
  now: number,
): E.Either<FieldError[], TicketFieldDefinition> => {
  const errors: FieldError[] = [];
  if (input.key !== undefined && input.key !== def.key)
    errors.push(fieldError('key', 'read_only', 'cannot change: a field keeps its key (delete it and define another)'));
  if (input.type !== undefined && input.type !== def.type)
    errors.push(fieldError('type', 'read_only', `cannot change: the field stays a ${def.type} field`));
  if (input.pattern !== undefined && input.pattern !== def.pattern)
    errors.push(
      def.type === 'regexp'
        ? fieldError('pattern', 'read_only', 'cannot change: values were checked against this pattern')
        : fieldError('pattern', 'invalid_value', 'only regexp fields take a pattern'),
    );
  const next: TicketFieldDefinition = {
    ...def,
    title: input.title ?? def.title,
    description: input.description === undefined ? def.description : (input.description ?? ''),
    options: input.options ?? def.options,
    required: input.required ?? def.required,
    customerVisible: input.customerVisible ?? def.customerVisible,
    customerEditable: input.customerEditable ?? def.customerEditable,
    position: input.position ?? def.position,
  };
  errors.push(...coherence(next));
  if (errors.length > 0) return E.left(errors);
  const same =
    next.title === def.title &&
    next.description === def.description &&
    JSON.stringify(next.options) === JSON.stringify(def.options) &&
    next.required === def.required &&
    next.customerVisible === def.customerVisible &&
    next.customerEditable === def.customerEditable &&
    next.position === def.position;
  return E.right(same ? def : revise(def, now, next));
};
