import type { DomainError } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { checkPrecondition, type WriteOptions } from './precondition.js';
import { withRetries, type Outcome } from './shared.js';

/**
 * What a change to one stored resource states: only what differs between the use cases.
 * `versionedWrite` runs it; each attempt, in this order:
 *
 *   load      the resource as the caller may reach it (else NotFound, Gone, Forbidden)
 *   allowed   may the caller make this write, on the state it replaces
 *   If-Match  checked on that state, as the caller sees it (`shown`)
 *   change    the next state (the state itself: nothing to write, answered as is)
 *   write     over the loaded version; a lost race starts the attempt again
 *             (withRetries: under If-Match it is PreconditionFailed instead)
 */
export interface VersionedWrite<T, Shown = T> {
  readonly load: () => Promise<Outcome<T>>;
  /** The refusal when the caller may not make this write; null when they may. */
  readonly allowed?: (current: T) => DomainError | null;
  /** What If-Match is checked on (a ticket: its view for this caller). Default: the resource. */
  readonly shown?: (current: T) => Shown;
  /** Absent: the write takes the resource as it is (a removal by id). */
  readonly change?: (current: T) => Outcome<T> | Promise<Outcome<T>>;
  /** True: written; false: another writer came first (retried); else the store's refusal. */
  readonly write: (next: T, current: T) => Promise<boolean | DomainError>;
  /** The resource as this request already loaded it: the first attempt starts from it. */
  readonly loaded?: T;
}

/** Runs a versioned write (see VersionedWrite); the written state, or why not. */
export const versionedWrite = <T, Shown = T>(
  w: VersionedWrite<T, Shown>,
  options: WriteOptions<Shown>,
): Promise<Outcome<T>> => {
  let preloaded = w.loaded;
  return withRetries(async () => {
    const loaded = preloaded === undefined ? await w.load() : E.right(preloaded);
    preloaded = undefined;
    if (E.isLeft(loaded)) return loaded;
    const current = loaded.right;
    const denied = w.allowed?.(current) ?? null;
    if (denied !== null) return E.left(denied);
    // Without `shown`, Shown is T (its default): the resource is what the caller sees.
    const held = checkPrecondition(options, w.shown === undefined ? (current as unknown as Shown) : w.shown(current));
    if (E.isLeft(held)) return held;
    const changed = w.change === undefined ? E.right(current) : await w.change(current);
    if (E.isLeft(changed) || (w.change !== undefined && changed.right === current)) return changed;
    const written = await w.write(changed.right, current);
    if (typeof written !== 'boolean') return E.left(written);
    return written ? changed : 'retry';
  }, options);
};
