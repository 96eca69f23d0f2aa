import {
  newTicketField,
  type FieldType,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '@support/domain';

/** A custom field's definition as the domain makes it: id `id`, key `f<id>`, of `type`. */
export const field = (
  id: number,
  type: FieldType,
  extra: Partial<TicketFieldCreateInput> = {},
): TicketFieldDefinition => {
  const made = newTicketField(id as TicketFieldId, { key: `f${String(id)}`, title: 'F', type, ...extra }, id, 0);
  if (made._tag === 'Left') throw new Error(JSON.stringify(made.left));
  return made.right;
};

/** Dropdown or multiselect options, each titled by its value. */
export const opts = (...values: string[]) => values.map((value) => ({ value, title: value }));
