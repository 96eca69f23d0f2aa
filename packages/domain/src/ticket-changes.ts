import * as E from 'fp-ts/lib/Either.js';
import { noCustomValues, sameCustomValues, type CustomValues } from './custom-fields/value.js';
import { fieldError, type FieldError } from './errors.js';
import type { GroupId, UserId } from './ids.js';
import type { TicketPatchInput, TicketReplaceInput } from './inputs.js';
import { defaultPriority, type Priority } from './priority.js';
import { revise } from './revision.js';
import { sameItems } from './same-items.js';
import { changeState, initialTicketState, type TicketState } from './ticket-state.js';
import type { Customer, Ticket } from './ticket.js';

// The writable fields of a ticket, described once: `ticketChangeRules` is typed against
// TicketChanges, so a field added there and forgotten here fails the build; replacement,
// patch, "changes nothing" and the write itself are read from the rules, never listed again.

/** The writable fields of a ticket after a write, before the state machine has been consulted. */
export interface TicketChanges {
  readonly subject: string;
  readonly summary: string;
  readonly state: TicketState;
  readonly priority: Priority;
  readonly customer: Customer;
  readonly assignedUserId: UserId | null;
  readonly groupId: GroupId | null;
  readonly tags: readonly string[];
  /** Custom field values by field id, as the use case decoded them against the definitions (custom-fields/ticket-values.ts). */
  readonly customFields: CustomValues;
}

interface ChangeRule<K extends keyof TicketChanges> {
  /** The value the ticket has now. */
  readonly current: (t: Ticket) => TicketChanges[K];
  /** What a replacement that leaves the field out, or a patch's null, sets. */
  readonly reset: (t: Ticket) => TicketChanges[K];
  /** Whether a change to this value is no change (default: ===). */
  readonly same?: (a: TicketChanges[K], b: TicketChanges[K]) => boolean;
  /** The ticket's fields a value is written as. */
  readonly write: (v: TicketChanges[K]) => Partial<Ticket>;
  /** The input's name for it (a write command's field, as the policy and the edge name it). */
  readonly input: string;
  /** Whether a customer may write it on their own ticket (application/src/policy.ts). */
  readonly customerWrites: boolean;
}

type Plain = Exclude<keyof TicketChanges, 'customer'> & keyof Ticket;

/** A field kept on the ticket under the same name and type, reset to `initial`. */
const plain = <K extends Plain>(
  key: K,
  initial: TicketChanges[K],
  customerWrites: boolean,
  same?: (a: TicketChanges[K], b: TicketChanges[K]) => boolean,
): ChangeRule<K> => ({
  current: (t) => t[key] as unknown as TicketChanges[K],
  reset: () => initial,
  ...(same === undefined ? {} : { same }),
  write: (v) => ({ [key]: v }),
  input: key,
  customerWrites,
});

export const ticketChangeRules = {
  subject: plain('subject', '', true),
  summary: plain('summary', '', true),
  state: plain('state', initialTicketState, true),
  priority: plain('priority', defaultPriority, false),
  // An omitted customer stays: there is no default customer.
  customer: {
    current: (t) => ({ id: t.customerId, name: t.customerName }),
    reset: (t) => ({ id: t.customerId, name: t.customerName }),
    same: (a, b) => a.id === b.id && a.name === b.name,
    write: (c) => ({ customerId: c.id, customerName: c.name }),
    input: 'customerId',
    customerWrites: true,
  },
  assignedUserId: plain('assignedUserId', null, false),
  groupId: plain('groupId', null, false),
  tags: plain('tags', [], false, sameItems),
  // Given whole (decoded by the use case, which applies the merge rules of contract §10):
  // replacementChanges and patchChanges take the values, never the raw input.
  customFields: plain('customFields', noCustomValues, true, sameCustomValues),
} satisfies { readonly [K in keyof TicketChanges]: ChangeRule<K> };

type AnyRule = ChangeRule<keyof TicketChanges>;
const rules = Object.entries(ticketChangeRules) as [keyof TicketChanges, AnyRule][];

// Every field of a ticket is written by a rule above or set by the server; a new field that is
// neither fails here, naming itself.
type ServerSet =
  'id' | 'createdAt' | 'updatedAt' | 'closedAt' | 'deletedAt' | 'version' | 'customerId' | 'customerName';
type WithoutRule = Exclude<keyof Ticket, ServerSet | keyof TicketChanges>;
export const everyTicketFieldHasARule: [WithoutRule] extends [never] ? true : WithoutRule = true;
// ... and every rule's field is one a replacement and a patch can name.
type NotInInputs = Exclude<Plain, keyof TicketPatchInput & keyof TicketReplaceInput>;
export const everyRuleHasAnInput: [NotInInputs] extends [never] ? true : NotInInputs = true;

/** The input's names of the fields a customer may write (customerId: only their own). */
export const customerTicketFields: readonly string[] = rules
  .filter(([, r]) => r.customerWrites)
  .map(([, r]) => r.input);

const build = (value: (key: keyof TicketChanges, rule: AnyRule) => unknown): TicketChanges =>
  Object.fromEntries(rules.map(([key, rule]) => [key, value(key, rule)])) as unknown as TicketChanges;

const given = (input: object, key: string): unknown => (input as Record<string, unknown>)[key];

/**
 * A replacement: every writable field is replaced; omitted optional ones return to their defaults, an omitted customer stays.
 * `customFields`: the ticket's custom values after the write (default: as they are).
 */
export const replacementChanges = (
  t: Ticket,
  input: TicketReplaceInput,
  customer: Customer | null,
  customFields: CustomValues = t.customFields,
): TicketChanges =>
  build((key, rule) =>
    key === 'customFields'
      ? customFields
      : key === 'customer'
        ? (customer ?? rule.current(t))
        : (given(input, key) ?? rule.reset(t)),
  );

/** A customer's replacement replaces only what customers write; the rest stays as it is. */
export const customerReplacementChanges = (
  t: Ticket,
  input: TicketReplaceInput,
  customFields: CustomValues = t.customFields,
): TicketChanges =>
  build((key, rule) =>
    key === 'customFields'
      ? customFields
      : key === 'customer' || !rule.customerWrites
        ? rule.current(t)
        : (given(input, key) ?? rule.reset(t)),
  );

/** A patch (merge-patch semantics, RFC 7396): only the given fields change; null resets a field to its default. */
export const patchChanges = (
  t: Ticket,
  input: TicketPatchInput,
  customer: Customer | null,
  customFields: CustomValues = t.customFields,
): TicketChanges =>
  build((key, rule) => {
    if (key === 'customFields') return customFields;
    if (key === 'customer') return customer ?? rule.current(t);
    const v = given(input, key);
    return v === undefined ? rule.current(t) : (v ?? rule.reset(t));
  });

/** Whether applying these changes would leave the ticket as it is (then nothing is written). */
export const changesNothing = (t: Ticket, c: TicketChanges): boolean =>
  rules.every(([key, rule]) => (rule.same ?? Object.is)(rule.current(t), c[key]));

/**
 * Applies changes through the state machine. A refused transition (closed -> pending)
 * is a field error on `state`. A write that changes nothing keeps the ticket as it is.
 */
export const applyTicketChanges = (t: Ticket, c: TicketChanges, now: number): E.Either<FieldError[], Ticket> => {
  const state = changeState({ state: t.state, closedAt: t.closedAt }, c.state, now);
  if (E.isLeft(state)) {
    const { from, to } = state.left;
    return E.left([fieldError('state', 'invalid_transition', `a ${from} ticket cannot become ${to}`)]);
  }
  if (changesNothing(t, c)) return E.right(t);
  const written = Object.assign({}, ...rules.map(([key, rule]) => rule.write(c[key]))) as Partial<Ticket>;
  return E.right(revise(t, now, { ...written, state: state.right.state, closedAt: state.right.closedAt }));
};
