import { type Message, type MessageCreateInput, type MessageNumber, type MessagePatchInput, type PageRequest, type TicketId } from '@support/domain';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { type DecodedBody, type DecodedQuery } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import { type Outcome } from '../shared.js';
import type { MessageList } from '../views.js';
export declare const listMessages: (ports: Ports, actor: Actor, ticketId: TicketId, decoded: DecodedQuery<PageRequest>) => Promise<Outcome<MessageList>>;
export declare const getMessage: (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber) => Promise<Outcome<Message>>;
export declare const createMessageUseCase: (ports: Ports, actor: Actor, ticketId: TicketId, decoded: DecodedBody<MessageCreateInput>) => Promise<Outcome<Message>>;
export declare const replaceMessageUseCase: (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber, decoded: DecodedBody<MessageCreateInput>, options?: WriteOptions<Message>) => Promise<Outcome<Message>>;
export declare const patchMessageUseCase: (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber, decoded: DecodedBody<MessagePatchInput>, options?: WriteOptions<Message>) => Promise<Outcome<Message>>;
export declare const deleteMessageUseCase: (ports: Ports, actor: Actor, ticketId: TicketId, number: MessageNumber, options?: WriteOptions<Message>) => Promise<Outcome<Message>>;
//# sourceMappingURL=use-cases.d.ts.map