import type { FollowUp } from '@support/application';
import type { EventActor } from '@support/domain';

type Op = FollowUp['op'];
/** `by`: the actor of the write that made the follow-up due, for its events (contract §8.3). */
type Handler<K extends Op> = (f: Extract<FollowUp, { readonly op: K }>, by: EventActor | undefined) => void;

/**
 * The follow-ups of a user's or group's write (the application's ports/follow-ups.ts), run
 * inside the write's own synchronous step: the table that owns the records a follow-up
 * changes registers a handler for it. So a write and what it makes due elsewhere land
 * together, atomic for every concurrent caller and one journalled port call (journal.ts: one
 * commit of the embedded store); there is nothing in between that a crash could cut.
 */
export class MemoryFollowUps {
  private readonly handlers: { [K in Op]?: Handler<K> } = {};

  on<K extends Op>(op: K, handler: Handler<K>): void {
    (this.handlers as Record<K, Handler<K>>)[op] = handler;
  }

  run(followUps: readonly FollowUp[], by?: EventActor): void {
    for (const f of followUps) {
      switch (f.op) {
        case 'renameCustomer':
          this.handler(f.op, this.handlers.renameCustomer)(f, by);
          break;
        case 'unassignUser':
          this.handler(f.op, this.handlers.unassignUser)(f, by);
          break;
        case 'revokeUser':
          this.handler(f.op, this.handlers.revokeUser)(f, by);
          break;
        case 'revokePersonalTokens':
          this.handler(f.op, this.handlers.revokePersonalTokens)(f, by);
          break;
        case 'clearGroup':
          this.handler(f.op, this.handlers.clearGroup)(f, by);
          break;
        case 'removeGroup':
          this.handler(f.op, this.handlers.removeGroup)(f, by);
          break;
      }
    }
  }

  private handler<K extends Op>(op: K, h: Handler<K> | undefined): Handler<K> {
    if (h === undefined) throw new Error(`no table of the memory store carries out "${op}"`);
    return h;
  }
}
