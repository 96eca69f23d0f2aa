import {
  tokenize,
  type CustomScalar,
  type CustomValues,
  type TicketFieldDefinition,
  type TicketFieldId,
} from '@support/domain';

// Custom fields (contract §10) in MongoDB: a ticket's values as attribute entries under one
// multikey index, the words of its text values, and a definition's document.

/** A custom field value as the `cf` index holds it: field id and value. */
export interface CfEntry {
  k: number;
  v: CustomScalar;
}

/** The attribute entries of a ticket's custom field values. */
export const cfEntries = (values: CustomValues): CfEntry[] => {
  const out: CfEntry[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (Array.isArray(v)) for (const x of v as readonly string[]) out.push({ k: Number(k), v: x });
    else out.push({ k: Number(k), v: v as CustomScalar });
  }
  return out;
};

/** The search words of text custom fields, each as `<field id>:<word>` (a word holds no colon), so a query names the fields it searches. */
export const customFieldWords = (values: CustomValues, textFields: ReadonlySet<number>): string[] => {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(values))
    if (typeof v === 'string' && textFields.has(Number(k))) for (const w of tokenize(v)) out.add(`${k}:${w}`);
  return [...out];
};

/** A custom field definition (contract §10), `_id` its id. */
export type TicketFieldDocument = Omit<TicketFieldDefinition, 'id' | 'createdAt' | 'updatedAt'> & {
  _id: number;
  createdAt: Date;
  updatedAt: Date;
};

export const toTicketFieldDocument = (d: TicketFieldDefinition): TicketFieldDocument => {
  const { id, createdAt, updatedAt, ...rest } = d;
  return {
    ...rest,
    options: d.options.map((o) => ({ ...o })),
    _id: id,
    createdAt: new Date(createdAt),
    updatedAt: new Date(updatedAt),
  };
};

export const fromTicketFieldDocument = (d: TicketFieldDocument): TicketFieldDefinition =>
  Object.freeze({
    id: d._id as TicketFieldId,
    key: d.key,
    title: d.title,
    type: d.type,
    description: d.description,
    options: d.options.map((o) => ({ value: o.value, title: o.title })),
    pattern: d.pattern,
    required: d.required,
    customerVisible: d.customerVisible,
    customerEditable: d.customerEditable,
    position: d.position,
    createdAt: d.createdAt.getTime(),
    updatedAt: d.updatedAt.getTime(),
    version: d.version,
  });
