import {
  applyTicketChanges,
  customerReplacementChanges,
  createTicket as newTicket,
  deleteTicket as deletedTicket,
  fieldError,
  forbidden,
  noCustomValues,
  patchChanges,
  replacementChanges,
  validationFailed,
  visibleFields,
  writeCustomValues,
  type CustomFieldsGiven,
  type CustomFieldsWrite,
  type CustomFieldsWriter,
  type CustomValues,
  type Customer,
  type DomainError,
  type FieldError,
  type Ticket,
  type TicketChanges,
  type TicketFieldDefinition,
  type TicketCreateInput,
  type TicketId,
  type TicketPatchInput,
  type TicketReplaceInput,
  type TicketState,
  type UserId,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import type { DecodedBody, RefusedBody } from '../decoded.js';
import { versionedWrite, type VersionedWrite } from '../versioned-write.js';
import { customerStates, customerTicketFields, forbiddenFields, isCustomer, requireRole } from '../policy.js';
import type { Ports } from '../ports/index.js';
import { allErrors, givenFields, type Outcome } from '../shared.js';
import type { TicketView } from '../views.js';
import { loadTicket } from './access.js';
import { checkAssignee, checkGroup, resolveCustomer } from './references.js';
import { bareView } from './relations.js';

interface TicketFieldsInput {
  readonly customerId?: UserId;
  readonly state?: TicketState;
}

/** What a customer may not write in this body: fields beyond theirs, another customer, or a state other than open/closed. */
const customerViolations = (actor: Actor, input: TicketFieldsInput): string[] => {
  const fields = givenFields(input).filter((f) => !customerTicketFields.includes(f));
  if (input.customerId !== undefined && input.customerId !== actor.user.id) fields.push('customerId');
  if (input.state !== undefined && !customerStates.includes(input.state)) fields.push('state');
  return fields;
};

const refusal = (actor: Actor, input: TicketFieldsInput): E.Either<ReturnType<typeof forbidden>, null> => {
  if (!isCustomer(actor)) return E.right(null);
  const fields = customerViolations(actor, input);
  if (fields.length === 0) return E.right(null);
  return E.left(
    fields.length === 1 && fields[0] === 'state'
      ? forbidden('customers may close or reopen a ticket, not set it to pending')
      : forbiddenFields(actor, fields),
  );
};

const writerOf = (actor: Actor): CustomFieldsWriter => (isCustomer(actor) ? 'customer' : 'staff');

const customerRequired = fieldError('customerId', 'required', 'is required when an agent or admin creates a ticket');

/**
 * Every bad field at once: a refused body still reports a missing customerId. A body that is
 * not a JSON object (`given` null) has no fields to report on: it answers its one error.
 */
const withMissingCustomer = (actor: Actor, refused: RefusedBody): DomainError => {
  const missing = !isCustomer(actor) && refused.given !== null && !refused.given.includes('customerId');
  return validationFailed(missing ? [...refused.errors, customerRequired] : refused.errors, refused.omitted);
};

/**
 * The errors of a refused body's custom_fields, which only the use case can judge (against the
 * definitions, and for an update the ticket's values): every bad field at once, whatever else
 * the body got wrong. None when custom_fields itself was refused (not an object), or when the
 * ticket of an update cannot be read (its refusal is the body's).
 */
const customErrorsOf = async (
  ports: Ports,
  actor: Actor,
  refused: RefusedBody,
  mode: CustomFieldsWrite,
  id: TicketId | null,
): Promise<readonly FieldError[]> => {
  if (refused.given === null) return [];
  const given = refused.accepted?.customFields as CustomFieldsGiven | undefined;
  // Nothing to judge: custom_fields refused at the edge (its error is listed already), or left
  // out of a patch. Left out of a creation or a replacement, its required fields are missing.
  if (given === undefined && (mode === 'patch' || refused.given.includes('customFields'))) return [];
  let current: CustomValues = noCustomValues;
  if (id !== null) {
    const ticket = await loadTicket(ports, actor, id);
    if (E.isLeft(ticket)) return [];
    current = ticket.right.customFields;
  }
  const values = writeCustomValues(await ports.ticketFields.list(), current, given, mode, writerOf(actor));
  return E.isLeft(values) ? values.left : [];
};

/** A refused body, with the errors of its custom_fields added. */
const refusedWithCustom = async (
  ports: Ports,
  actor: Actor,
  refused: RefusedBody,
  mode: CustomFieldsWrite,
  id: TicketId | null,
): Promise<RefusedBody> => {
  const custom = await customErrorsOf(ports, actor, refused, mode, id);
  return custom.length === 0 ? refused : { ...refused, errors: [...refused.errors, ...custom] };
};

export const createTicket = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<TicketCreateInput>,
): Promise<Outcome<TicketView>> => {
  if (E.isLeft(decoded))
    return E.left(withMissingCustomer(actor, await refusedWithCustom(ports, actor, decoded.left, 'create', null)));
  const input = decoded.right;
  const refused = refusal(actor, input);
  if (E.isLeft(refused)) return refused;

  let customer: Customer | null = isCustomer(actor) ? { id: actor.user.id, name: actor.user.name } : null;
  const errors: FieldError[] = [];
  if (customer === null) {
    if (input.customerId === undefined) {
      errors.push(customerRequired);
    } else {
      const resolved = await resolveCustomer(ports, input.customerId);
      customer = resolved.customer;
      errors.push(...resolved.errors);
    }
  }
  errors.push(...(await checkAssignee(ports, input.assignedUserId)), ...(await checkGroup(ports, input.groupId)));
  const defs = await ports.ticketFields.list();
  const values = writeCustomValues(defs, noCustomValues, input.customFields, 'create', writerOf(actor));
  if (E.isLeft(values)) errors.push(...values.left);
  if (errors.length > 0 || customer === null || E.isLeft(values)) return E.left(validationFailed(errors));

  const id = (await ports.ids.next('ticket')) as TicketId;
  const ticket = newTicket(id, input, customer, ports.clock.now(), values.right);
  await ports.tickets.insert(ticket, byActor(actor));
  return E.right(bareView(actor, ticket, visibleFields(defs, writerOf(actor))));
};

type ChangeBuilder = (current: Ticket, customer: Customer | null, customFields: CustomValues) => TicketChanges;

/** A customer's replacement replaces only what customers write (subject, summary, state), with their defaults. */
const customerReplacement =
  (input: TicketReplaceInput): ChangeBuilder =>
  (current, _, customFields) =>
    customerReplacementChanges(current, input, customFields);

/** What every write of a ticket shares: loaded as the caller may see it, If-Match on their view, a versioned update. */
const ticketWrite = (
  ports: Ports,
  actor: Actor,
  id: TicketId,
  fields: readonly TicketFieldDefinition[],
): VersionedWrite<Ticket, TicketView> => ({
  load: () => loadTicket(ports, actor, id),
  shown: (t) => bareView(actor, t, fields),
  write: (next, current) => ports.tickets.update(next, current.version, byActor(actor)),
});

type TicketUpdateInput = TicketFieldsInput & {
  assignedUserId?: UserId | null;
  groupId?: Ticket['groupId'];
  customFields?: TicketPatchInput['customFields'];
};

const updateTicket = async (
  ports: Ports,
  actor: Actor,
  id: TicketId,
  input: TicketUpdateInput,
  changes: ChangeBuilder,
  mode: CustomFieldsWrite,
  options: WriteOptions<TicketView>,
): Promise<Outcome<TicketView>> => {
  const first = await loadTicket(ports, actor, id);
  if (E.isLeft(first)) return first;
  const refused = refusal(actor, input);
  if (E.isLeft(refused)) return refused;

  let customer: Customer | null = null;
  const referenceErrors: FieldError[] = [];
  if (input.customerId !== undefined && input.customerId !== first.right.customerId) {
    const resolved = await resolveCustomer(ports, input.customerId);
    customer = resolved.customer;
    referenceErrors.push(...resolved.errors);
  }
  if (input.assignedUserId !== first.right.assignedUserId)
    referenceErrors.push(...(await checkAssignee(ports, input.assignedUserId)));
  if (input.groupId !== first.right.groupId) referenceErrors.push(...(await checkGroup(ports, input.groupId)));
  const defs = await ports.ticketFields.list();
  const shown = visibleFields(defs, writerOf(actor));

  const written = await versionedWrite(
    {
      ...ticketWrite(ports, actor, id, shown),
      // The first attempt reuses the ticket loaded above; a retry after a lost race reloads it.
      loaded: first.right,
      change: (current) => {
        const values = writeCustomValues(defs, current.customFields, input.customFields, mode, writerOf(actor));
        if (E.isLeft(values)) return E.left(validationFailed(allErrors(referenceErrors, values.left)));
        const applied = applyTicketChanges(current, changes(current, customer, values.right), ports.clock.now());
        // A refused state change says where the ticket may go instead, for this caller (contract §7.2).
        const transitionErrors = E.isLeft(applied)
          ? applied.left.map((f) =>
              f.code === 'invalid_transition'
                ? { ...f, allowed: bareView(actor, current, shown).allowedTransitions }
                : f,
            )
          : [];
        const errors = allErrors(referenceErrors, transitionErrors);
        return errors.length > 0 || E.isLeft(applied) ? E.left(validationFailed(errors)) : applied;
      },
    },
    options,
  );
  return E.map((t: Ticket) => bareView(actor, t, shown))(written);
};

/** PUT and PATCH of a ticket differ only in how the body becomes changes. */
const ticketUpdate =
  <I extends TicketUpdateInput>(mode: CustomFieldsWrite, changesOf: (actor: Actor, input: I) => ChangeBuilder) =>
  async (
    ports: Ports,
    actor: Actor,
    id: TicketId,
    decoded: DecodedBody<I>,
    options: WriteOptions<TicketView> = {},
  ): Promise<Outcome<TicketView>> => {
    if (E.isRight(decoded))
      return updateTicket(ports, actor, id, decoded.right, changesOf(actor, decoded.right), mode, options);
    const refused = await refusedWithCustom(ports, actor, decoded.left, mode, id);
    return E.left(validationFailed(refused.errors, refused.omitted));
  };

export const replaceTicket = ticketUpdate<TicketReplaceInput>('replace', (actor, input) =>
  isCustomer(actor)
    ? customerReplacement(input)
    : (current, customer, customFields) => replacementChanges(current, input, customer, customFields),
);

export const patchTicket = ticketUpdate<TicketPatchInput>(
  'patch',
  (_, input) => (current, customer, customFields) => patchChanges(current, input, customer, customFields),
);

export const deleteTicket = async (
  ports: Ports,
  actor: Actor,
  id: TicketId,
  options: WriteOptions<TicketView> = {},
): Promise<Outcome<TicketView>> => {
  const shown = visibleFields(await ports.ticketFields.list(), writerOf(actor));
  const deleted = await versionedWrite(
    {
      ...ticketWrite(ports, actor, id, shown),
      allowed: () => requireRole(actor, ['admin'], 'delete tickets'),
      change: (current) => E.right(deletedTicket(current, ports.clock.now())),
    },
    options,
  );
  return E.map((t: Ticket) => bareView(actor, t, shown))(deleted);
};
