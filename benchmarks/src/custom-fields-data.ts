// The custom fields of bench:custom-fields (custom-fields.ts): 20 fields of every type with
// their fill rates and value makers, the help desk's tickets carrying them, and one search
// condition per field.
import type { Store } from '@support/application';
import { aTicket } from '@support/application/testing';
import {
  newTicketField,
  type CustomValue,
  type FieldType,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
  type TicketFilter,
} from '@support/domain';
import { seeded } from './support/seeded.js';

// ---------------------------------------------------------------------------- the fields

export type Rng = () => number;
export type PickOne = <T>(xs: readonly T[]) => T;
type Spec = [TicketFieldDefinition, number, (r: Rng, p: PickOne) => CustomValue];
const opts = (...values: string[]) => values.map((value) => ({ value, title: value }));
const field = (id: number, key: string, type: FieldType, extra: Partial<TicketFieldCreateInput> = {}) => {
  const made = newTicketField(id as TicketFieldId, { key, title: key, type, ...extra }, id, 0);
  if (made._tag === 'Left') throw new Error(JSON.stringify(made.left));
  return made.right;
};
const day = (r: Rng, from: number, years: number) => {
  const d = new Date(Date.UTC(from, 0, 1) + Math.floor(r() * years * 365) * 86_400_000);
  return d.toISOString().slice(0, 10);
};
const products = Array.from({ length: 30 }, (_, i) => `product_${i}`);
const skus = Array.from({ length: 2000 }, (_, i) => `SKU${1000 + i}`);
/** 20 fields of every type, with the fill rate and a value maker each (rng in [0, 1)). */
export const specs: Spec[] = [
  [
    field(1, 'plan_tier', 'dropdown', { options: opts('free', 'basic', 'pro', 'gold', 'enterprise') }),
    0.9,
    (_r: Rng, p: PickOne) => p(['free', 'basic', 'pro', 'gold', 'enterprise']),
  ],
  [
    field(2, 'region', 'dropdown', { options: opts('eu', 'us', 'uk', 'apac', 'latam', 'mea', 'ca', 'au') }),
    0.7,
    (_r: Rng, p: PickOne) => p(['eu', 'us', 'uk', 'apac', 'latam', 'mea', 'ca', 'au']),
  ],
  [field(3, 'product', 'dropdown', { options: opts(...products) }), 0.6, (_r: Rng, p: PickOne) => p(products)],
  [
    field(4, 'channel', 'dropdown', { options: opts('email', 'web', 'phone', 'chat') }),
    0.95,
    (_r: Rng, p: PickOne) => p(['email', 'web', 'phone', 'chat']),
  ],
  [field(5, 'vip', 'checkbox'), 1, (r: Rng) => r() < 0.05],
  [field(6, 'escalated', 'checkbox'), 0.4, (r: Rng) => r() < 0.3],
  [field(7, 'seats', 'integer'), 0.5, (r: Rng) => 1 + Math.floor(r() * 5000)],
  [field(8, 'mrr', 'decimal'), 0.4, (r: Rng) => Math.round(r() * 9999999) / 100],
  [field(9, 'nps', 'integer'), 0.2, (r: Rng) => Math.floor(r() * 11)],
  [field(10, 'renewal', 'date'), 0.5, (r: Rng) => day(r, 2025, 3)],
  [field(11, 'first_response', 'date'), 0.3, (r: Rng) => day(r, 2024, 2)],
  [
    field(12, 'order_no', 'regexp', { pattern: '^ORD-[0-9]{6}$' }),
    0.3,
    (r: Rng) => `ORD-${String(Math.floor(r() * 1e6)).padStart(6, '0')}`,
  ],
  [field(13, 'reference', 'text'), 0.25, (r: Rng) => `ref-${Math.floor(r() * 1e9).toString(36)}`],
  [field(14, 'sku', 'text'), 0.4, (_r: Rng, p: PickOne) => p(skus)],
  [
    field(15, 'notes', 'textarea'),
    0.1,
    (_r: Rng, p: PickOne) =>
      Array.from({ length: 8 }, () =>
        p(['printer', 'invoice', 'refund', 'login', 'slow', 'crash', 'vpn', 'email']),
      ).join(' '),
  ],
  [
    field(16, 'areas', 'multiselect', {
      options: opts('api', 'ui', 'billing', 'auth', 'mobile', 'reports', 'sso', 'export', 'import', 'search'),
    }),
    0.5,
    (_r: Rng, p: PickOne) => [
      ...new Set([
        p(['api', 'ui', 'billing', 'auth', 'mobile']),
        p(['reports', 'sso', 'export', 'import', 'search', 'api']),
      ]),
    ],
  ],
  [
    field(17, 'languages', 'multiselect', { options: opts('en', 'de', 'fr', 'es', 'ja', 'pt') }),
    0.3,
    (_r: Rng, p: PickOne) => [p(['en', 'de', 'fr', 'es', 'ja', 'pt'])],
  ],
  [
    field(18, 'browser', 'dropdown', { options: opts('chrome', 'firefox', 'safari', 'edge', 'opera', 'other') }),
    0.3,
    (_r: Rng, p: PickOne) => p(['chrome', 'firefox', 'safari', 'edge', 'opera', 'other']),
  ],
  [field(19, 'refund_amount', 'decimal'), 0.05, (r: Rng) => Math.round(r() * 50000) / 100],
  [field(20, 'contract_id', 'integer'), 0.15, (r: Rng) => 100000 + Math.floor(r() * 1e7)],
];
export const defs = specs.map(([d]) => d);

/** The i-th ticket of the help desk, with (or without) its custom field values. */
export const ticketAt = (id: number, withFields: boolean, rng: Rng, int: (n: number) => number, pick: PickOne) => {
  const states = ['open', 'pending', 'closed'] as const;
  const state = states[rng() < 0.1 ? 0 : rng() < 0.2 ? 1 : 2];
  const values: Record<string, CustomValue> = {};
  if (withFields) for (const [d, fill, make] of specs) if (rng() < fill) values[d.id] = make(rng, pick);
  return aTicket({
    id,
    subject: `Ticket ${id}`,
    state,
    closedAt: state === 'closed' ? 1_700_000_000_000 + id : null,
    customerId: 1 + int(20_000),
    assignedUserId: rng() < 0.7 ? 2 + int(48) : null,
    priority: pick(['low', 'normal', 'high', 'urgent'] as const),
    createdAt: 1_700_000_000_000 + id * 300,
    updatedAt: 1_700_000_000_000 + id * 300,
    customFields: values,
  });
};

export const fillStore = async (store: Store, withFields: boolean, n: number) => {
  const { rng, int, pick } = seeded(0x5eed);
  if (withFields) for (const d of defs) await store.ticketFields.insert(d, 100);
  const batch: Promise<unknown>[] = [];
  for (let id = 1; id <= n; id += 1) {
    batch.push(store.tickets.insert(ticketAt(id, withFields, rng, int, pick)));
    if (batch.length === 5000) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
};

// ---------------------------------------------------------------------------- the searches

export type CustomCondition = NonNullable<TicketFilter['custom']>[number];
/** A condition with plain numbers for field ids (branded in the filter). */
const range = (c: object) => c as CustomCondition;
const inCondition = (c: object) => c as CustomCondition;
const inValues = (id: number, values: readonly (string | number | boolean)[]) =>
  inCondition({ kind: 'in', fieldId: id, all: false, values, none: false });
/** One condition per field (a common value; a range for numbers and dates; ALL of two for a multiselect), and two `none`s. */
export const conditions: [string, CustomCondition][] = [
  ['cf.plan_tier=gold', inValues(1, ['gold'])],
  ['cf.region=eu,uk', inValues(2, ['eu', 'uk'])],
  ['cf.product=product_7', inValues(3, ['product_7'])],
  ['cf.channel=phone', inValues(4, ['phone'])],
  ['cf.vip=true', inValues(5, [true])],
  ['cf.escalated=true', inValues(6, [true])],
  ['cf.seats.gte=4000', range({ kind: 'range', fieldId: 7, gte: 4000, lte: null })],
  ['cf.mrr.lte=100', range({ kind: 'range', fieldId: 8, gte: null, lte: 100 })],
  ['cf.nps=0', inValues(9, [0])],
  ['cf.renewal in March 2026', range({ kind: 'range', fieldId: 10, gte: '2026-03-01', lte: '2026-03-31' })],
  ['cf.first_response.gte=2025-06-01', range({ kind: 'range', fieldId: 11, gte: '2025-06-01', lte: null })],
  ['cf.order_no=ORD-012345', inValues(12, ['ORD-012345'])],
  ['cf.reference=ref-abc', inValues(13, ['ref-abc'])],
  ['cf.sku=SKU1500', inValues(14, ['SKU1500'])],
  ['cf.notes=none', inCondition({ kind: 'in', fieldId: 15, all: false, values: [], none: true })],
  [
    'cf.areas=api,billing (ALL)',
    inCondition({ kind: 'in', fieldId: 16, all: true, values: ['api', 'billing'], none: false }),
  ],
  ['cf.languages=ja', inCondition({ kind: 'in', fieldId: 17, all: true, values: ['ja'], none: false })],
  ['cf.browser=safari,none', inCondition({ kind: 'in', fieldId: 18, all: false, values: ['safari'], none: true })],
  ['cf.refund_amount.gte=100', range({ kind: 'range', fieldId: 19, gte: 100, lte: null })],
  ['cf.contract_id=none', inCondition({ kind: 'in', fieldId: 20, all: false, values: [], none: true })],
];
export const sortable = defs.filter((d) => d.type !== 'textarea' && d.type !== 'multiselect');
