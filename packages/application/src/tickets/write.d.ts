import { type TicketCreateInput, type TicketId, type TicketPatchInput, type TicketReplaceInput } from '@support/domain';
import type { Actor } from '../actor.js';
import type { WriteOptions } from '../application.js';
import { type DecodedBody } from '../decoded.js';
import type { Ports } from '../ports/index.js';
import { type Outcome } from '../shared.js';
import type { TicketView } from '../views.js';
export declare const createTicketUseCase: (ports: Ports, actor: Actor, decoded: DecodedBody<TicketCreateInput>) => Promise<Outcome<TicketView>>;
export declare const replaceTicketUseCase: (ports: Ports, actor: Actor, id: TicketId, decoded: DecodedBody<TicketReplaceInput>, options?: WriteOptions<TicketView>) => Promise<Outcome<TicketView>>;
export declare const patchTicketUseCase: (ports: Ports, actor: Actor, id: TicketId, decoded: DecodedBody<TicketPatchInput>, options?: WriteOptions<TicketView>) => Promise<Outcome<TicketView>>;
export declare const deleteTicketUseCase: (ports: Ports, actor: Actor, id: TicketId, options?: WriteOptions<TicketView>) => Promise<Outcome<TicketView>>;
//# sourceMappingURL=write.d.ts.map