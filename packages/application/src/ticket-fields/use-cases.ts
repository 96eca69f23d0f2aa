import {
  conflict,
  customFieldLimits,
  fieldError,
  newTicketField,
  notFound,
  pageOffset,
  patchTicketField,
  removedOptions,
  validationFailed,
  type DomainError,
  type PageRequest,
  type TicketFieldCreateInput,
  type TicketFieldDefinition,
  type TicketFieldId,
  type TicketFieldPatchInput,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import { acceptBody, acceptPage, withBody, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { requireRole, staff } from '../policy.js';
import type { WriteOptions } from '../precondition.js';
import type { Ports } from '../ports/index.js';
import type { Outcome } from '../shared.js';
import { versionedWrite } from '../versioned-write.js';
import type { ListResult } from '../views.js';

// Custom field definitions (contract §10): admins define them; agents read all, customers the
// customer_visible ones (another one does not exist for them: 404).

export type TicketFieldList = ListResult<TicketFieldDefinition>;

/** The definitions this caller sees, by position. */
export const fieldsFor = async (
  ports: Pick<Ports, 'ticketFields'>,
  actor: Actor,
): Promise<readonly TicketFieldDefinition[]> => {
  const all = await ports.ticketFields.list();
  return staff(actor) ? all : all.filter((d) => d.customerVisible);
};

const writable = (actor: Actor): DomainError | null => requireRole(actor, ['admin'], 'define ticket fields');

const loadField = async (ports: Ports, actor: Actor, id: TicketFieldId): Promise<Outcome<TicketFieldDefinition>> => {
  const d = await ports.ticketFields.findById(id);
  return d === null || (!staff(actor) && !d.customerVisible) ? E.left(notFound('ticketField', id)) : E.right(d);
};

export const listTicketFields = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<TicketFieldList>> => {
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const all = await fieldsFor(ports, actor);
  const offset = pageOffset(page.right);
  return E.right({ items: all.slice(offset, offset + page.right.perPage), total: all.length, page: page.right });
};

export const getTicketField = (
  ports: Ports,
  actor: Actor,
  id: TicketFieldId,
): Promise<Outcome<TicketFieldDefinition>> => loadField(ports, actor, id);

export const createTicketField = async (
  ports: Ports,
  actor: Actor,
  decoded: DecodedBody<TicketFieldCreateInput>,
): Promise<Outcome<TicketFieldDefinition>> => {
  const denied = writable(actor);
  if (denied !== null) return E.left(denied);
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  const existing = await ports.ticketFields.list();
  const next = existing.reduce((p, d) => Math.max(p, d.position + 1), 0);
  const made = newTicketField(
    (await ports.ids.next('ticketField')) as TicketFieldId,
    input.right,
    next,
    ports.clock.now(),
  );
  if (E.isLeft(made)) return E.left(validationFailed(made.left));
  const stored = await ports.ticketFields.insert(made.right, customFieldLimits.definitions, byActor(actor));
  if (stored === 'key_taken')
    return E.left(
      validationFailed([fieldError('key', 'not_unique', `a ticket field with key "${made.right.key}" exists`)]),
    );
  if (stored === 'too_many')
    return E.left(
      validationFailed([
        fieldError(
          'key',
          'invalid_value',
          `at most ${customFieldLimits.definitions} ticket fields may be defined; delete one first`,
        ),
      ]),
    );
  return E.right(made.right);
};

export const patchTicketFieldUseCase = (
  ports: Ports,
  actor: Actor,
  id: TicketFieldId,
  decoded: DecodedBody<TicketFieldPatchInput>,
  options: WriteOptions<TicketFieldDefinition> = {},
): Promise<Outcome<TicketFieldDefinition>> =>
  withBody(decoded, (input) =>
    versionedWrite(
      {
        load: () => loadField(ports, actor, id),
        allowed: () => writable(actor),
        change: async (current) => {
          const next = patchTicketField(current, input, ports.clock.now());
          if (E.isLeft(next)) return E.left(validationFailed(next.left));
          const removed = removedOptions(current, next.right);
          if (removed.length === 0) return next;
          const holding = await ports.tickets.countHolding(current.id, removed);
          if (holding === 0) return next;
          const which = removed.map((v) => `"${v}"`).join(', ');
          return E.left(
            conflict(
              `${holding} ${holding === 1 ? 'ticket holds' : 'tickets hold'} the option${removed.length === 1 ? '' : 's'} ${which}: change ${holding === 1 ? 'it' : 'them'} first`,
            ),
          );
        },
        write: (next, current) => ports.ticketFields.update(next, current.version, byActor(actor)),
      },
      options,
    ),
  );

export const deleteTicketField = (
  ports: Ports,
  actor: Actor,
  id: TicketFieldId,
  options: WriteOptions<TicketFieldDefinition> = {},
): Promise<Outcome<TicketFieldDefinition>> =>
  versionedWrite(
    {
      load: () => loadField(ports, actor, id),
      allowed: () => writable(actor),
      write: async () =>
        (await ports.ticketFields.delete(id, ports.clock.now(), byActor(actor))) || notFound('ticketField', id),
    },
    options,
  );
