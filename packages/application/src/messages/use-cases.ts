import {
  applyMessageChanges,
  createMessage as newMessage,
  deleteMessage as deletedMessage,
  forbidden,
  gone,
  notFound,
  pageOffset,
  patchMessageChanges,
  replacementMessageChanges,
  touchTicket,
  type Message,
  type MessageChanges,
  type MessageCreateInput,
  type MessageNumber,
  type MessagePatchInput,
  type PageRequest,
  type TicketId,
  type DomainError,
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, withBody, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { versionedWrite, type VersionedWrite } from '../versioned-write.js';
import { isCustomer, staff } from '../policy.js';
import type { Ports } from '../ports/index.js';
import { withRetries, type Outcome } from '../shared.js';
import { loadTicket } from '../tickets/access.js';
import { attachableUploads, refusedMeanwhile } from '../attachments/attach.js';
import type { MessageList } from '../views.js';

const messageId = (ticketId: TicketId, n: number): string => `${ticketId}/${n}`;

/** A message as the caller may reach it: to a customer an internal note does not exist. */
export const loadMessage = async (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
): Promise<Outcome<Message>> => {
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const m = await ports.messages.find(ticketId, number);
  if (m === null || (m.internal && !staff(actor))) return E.left(notFound('message', messageId(ticketId, number)));
  if (m.deletedAt !== null) return E.left(gone('message', messageId(ticketId, number)));
  return E.right(m);
};

/** Customers edit and delete only what they wrote, and never make a note internal. */
const mayChange = (actor: Actor, m: Message, changes: MessageChanges | null): DomainError | null => {
  if (!isCustomer(actor)) return null;
  if (m.authorId !== actor.user.id) return forbidden('customers may change only messages they wrote');
  if (changes?.internal === true) return forbidden('customers may not write internal notes');
  return null;
};

export const listMessages = async (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  decoded: DecodedQuery<PageRequest>,
): Promise<Outcome<MessageList>> => {
  const page = acceptPage(decoded);
  if (E.isLeft(page)) return page;
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const found = await ports.messages.list(ticketId, staff(actor), pageOffset(page.right), page.right.perPage);
  return E.right({ items: found.items, total: found.total, page: page.right });
};

export const getMessage = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
): Promise<Outcome<Message>> => loadMessage(ports, actor, ticketId, number);

export const createMessage = async (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  decoded: DecodedBody<MessageCreateInput>,
): Promise<Outcome<Message>> => {
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  if (isCustomer(actor) && input.right.internal === true)
    return E.left(forbidden('customers may not write internal notes'));
  const given = input.right.attachmentIds ?? [];
  const uploads = await attachableUploads(ports, actor.user.id, given, ports.clock.now());
  if (E.isLeft(uploads)) return uploads;
  const number = (await ports.ids.next(`message:${ticketId}`)) as MessageNumber;
  const message = newMessage(ticketId, number, input.right, actor.user.id, ports.clock.now(), uploads.right);
  const refusedIds = await ports.messages.insert(message, byActor(actor));
  if (refusedIds.length > 0) return E.left(refusedMeanwhile(given, refusedIds));
  // A new message is activity on its ticket: its updated_at moves.
  await withRetries(async () => {
    const t = await ports.tickets.findById(ticketId);
    if (t === null || t.deletedAt !== null) return E.right(null);
    return (await ports.tickets.update(touchTicket(t, message.createdAt), t.version, byActor(actor)))
      ? E.right(null)
      : 'retry';
  }, {});
  return E.right(message);
};

/** What every write of a message shares: loaded as the caller may reach it, a versioned update. */
const messageWrite = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
): VersionedWrite<Message> => ({
  load: () => loadMessage(ports, actor, ticketId, number),
  write: (next, current) => ports.messages.update(next, current.version, byActor(actor)),
});

/** PUT and PATCH of a message differ only in how the body becomes changes. */
const messageUpdate =
  <I>(changesOf: (current: Message, input: I) => MessageChanges) =>
  (
    ports: Ports,
    actor: Actor,
    ticketId: TicketId,
    number: MessageNumber,
    decoded: DecodedBody<I>,
    options: WriteOptions<Message> = {},
  ): Promise<Outcome<Message>> =>
    withBody(decoded, (input) =>
      versionedWrite(
        {
          ...messageWrite(ports, actor, ticketId, number),
          allowed: (current) => mayChange(actor, current, changesOf(current, input)),
          change: (current) => E.right(applyMessageChanges(current, changesOf(current, input), ports.clock.now())),
        },
        options,
      ),
    );

export const replaceMessage = messageUpdate<MessageCreateInput>((_, input) => replacementMessageChanges(input));

export const patchMessage = messageUpdate<MessagePatchInput>((current, input) => patchMessageChanges(current, input));

export const deleteMessage = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
  options: WriteOptions<Message> = {},
): Promise<Outcome<Message>> =>
  versionedWrite(
    {
      ...messageWrite(ports, actor, ticketId, number),
      allowed: (current) => mayChange(actor, current, null),
      change: (current) => E.right(deletedMessage(current, ports.clock.now())),
    },
    options,
  );
