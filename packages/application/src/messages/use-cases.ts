import {
  applyMessageChanges,
  createMessage,
  deleteMessage,
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
} from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { byActor, type Actor } from '../actor.js';
import type { WriteOptions } from '../precondition.js';
import { acceptBody, acceptPage, type DecodedBody, type DecodedQuery } from '../decoded.js';
import { checkPrecondition } from '../precondition.js';
import { isCustomer, staff } from '../policy.js';
import type { Ports } from '../ports/index.js';
import { withRetries, type Outcome } from '../shared.js';
import { loadTicket } from '../tickets/access.js';
import type { MessageList } from '../views.js';

const messageId = (ticketId: TicketId, n: number): string => `${ticketId}/${n}`;

/** A message as the caller may reach it: to a customer an internal note does not exist. */
const loadMessage = async (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber): Promise<Outcome<Message>> => {
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const m = await ports.messages.find(ticketId, number);
  if (m === null || (m.internal && !staff(actor))) return E.left(notFound('message', messageId(ticketId, number)));
  if (m.deletedAt !== null) return E.left(gone('message', messageId(ticketId, number)));
  return E.right(m);
};

/** Customers edit and delete only what they wrote, and never make a note internal. */
const mayChange = (actor: Actor, m: Message, changes: MessageChanges | null): Outcome<null> => {
  if (!isCustomer(actor)) return E.right(null);
  if (m.authorId !== actor.user.id) return E.left(forbidden('customers may change only messages they wrote'));
  if (changes?.internal === true) return E.left(forbidden('customers may not write internal notes'));
  return E.right(null);
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

export const getMessage = (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber): Promise<Outcome<Message>> =>
  loadMessage(ports, actor, ticketId, number);

export const createMessageUseCase = async (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  decoded: DecodedBody<MessageCreateInput>,
): Promise<Outcome<Message>> => {
  const ticket = await loadTicket(ports, actor, ticketId);
  if (E.isLeft(ticket)) return ticket;
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return input;
  if (isCustomer(actor) && input.right.internal === true) return E.left(forbidden('customers may not write internal notes'));
  const number = (await ports.ids.next(`message:${ticketId}`)) as MessageNumber;
  const message = createMessage(ticketId, number, input.right, actor.user.id, ports.clock.now());
  await ports.messages.insert(message, byActor(actor));
  // A new message is activity on its ticket: its updated_at moves.
  await withRetries(async () => {
    const t = await ports.tickets.findById(ticketId);
    if (t === null || t.deletedAt !== null) return E.right(null);
    return (await ports.tickets.update(touchTicket(t, message.createdAt), t.version, byActor(actor))) ? E.right(null) : 'retry';
  }, {});
  return E.right(message);
};

const updateMessage = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
  changes: (current: Message) => MessageChanges,
  options: WriteOptions<Message>,
): Promise<Outcome<Message>> =>
  withRetries(async () => {
    const loaded = await loadMessage(ports, actor, ticketId, number);
    if (E.isLeft(loaded)) return loaded;
    const current = loaded.right;
    const wanted = changes(current);
    const allowed = mayChange(actor, current, wanted);
    if (E.isLeft(allowed)) return allowed;
    const held = checkPrecondition(options, current);
    if (E.isLeft(held)) return held;
    const next = applyMessageChanges(current, wanted, ports.clock.now());
    if (next === current) return E.right(current);
    return (await ports.messages.update(next, current.version, byActor(actor))) ? E.right(next) : 'retry';
  }, options);

export const replaceMessageUseCase = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
  decoded: DecodedBody<MessageCreateInput>,
  options: WriteOptions<Message> = {},
): Promise<Outcome<Message>> => {
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return Promise.resolve(input);
  return updateMessage(ports, actor, ticketId, number, () => replacementMessageChanges(input.right), options);
};

export const patchMessageUseCase = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
  decoded: DecodedBody<MessagePatchInput>,
  options: WriteOptions<Message> = {},
): Promise<Outcome<Message>> => {
  const input = acceptBody(decoded);
  if (E.isLeft(input)) return Promise.resolve(input);
  return updateMessage(ports, actor, ticketId, number, (m) => patchMessageChanges(m, input.right), options);
};

export const deleteMessageUseCase = (
  ports: Ports,
  actor: Actor,
  ticketId: TicketId,
  number: MessageNumber,
  options: WriteOptions<Message> = {},
): Promise<Outcome<Message>> =>
  withRetries(async () => {
    const loaded = await loadMessage(ports, actor, ticketId, number);
    if (E.isLeft(loaded)) return loaded;
    const allowed = mayChange(actor, loaded.right, null);
    if (E.isLeft(allowed)) return allowed;
    const held = checkPrecondition(options, loaded.right);
    if (E.isLeft(held)) return held;
    const deleted = deleteMessage(loaded.right, ports.clock.now());
    return (await ports.messages.update(deleted, loaded.right.version, byActor(actor))) ? E.right(deleted) : 'retry';
  }, options);
