import type { Message } from '@support/domain';

/** Not deleted: listed to agents and admins. */
const listed = 1;
/** Not deleted and not internal: listed to everyone. */
const listedPublic = 2;
/** Carries attachments. */
const filed = 4;

/** What a ticket's thread keeps of a message: whether it is listed, to whom, and whether it carries files. */
export const threadFlags = (m: Message): number =>
  (m.deletedAt === null ? listed | (m.internal ? 0 : listedPublic) : 0) | (m.attachments.length > 0 ? filed : 0);

/**
 * One ticket's messages as memory holds them: their numbers in ascending order, each with its
 * flags (one array: [number, flags, number, flags, ...], small integers, 16 bytes a message),
 * and how many are listed to each audience. The messages themselves are read by key from the
 * shelf. A thread of one message costs about 100 bytes (a Map, two sorted lists and a
 * journalled map each cost ~1.7 KB for one message; measured in docs/embedded-store.md).
 * Numbers are given in ascending order (a sequence per ticket), so putting one is an append;
 * any other order is kept sorted too.
 */
export class Thread {
  private entries: number[] = [];
  private listedCount = 0;
  private publicCount = 0;

  /** The position of number `n` in `entries` (even), or where it would go. */
  private at(n: number): number {
    const e = this.entries;
    const last = e.length - 2;
    if (last < 0 || (e[last] as number) < n) return e.length;
    let lo = 0;
    let hi = e.length / 2;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((e[2 * mid] as number) < n) lo = mid + 1;
      else hi = mid;
    }
    return 2 * lo;
  }

  has(n: number): boolean {
    return this.entries[this.at(n)] === n;
  }

  /** Stores (or replaces) the flags of number `n`. */
  put(n: number, flags: number): void {
    const i = this.at(n);
    const e = this.entries;
    if (e[i] === n) {
      this.tally(e[i + 1] as number, -1);
      e[i + 1] = flags;
    } else if (e.length === 0) {
      // An exact array: a first push would reserve room for 17 numbers, and most threads are short.
      this.entries = [n, flags];
    } else if (i === e.length) e.push(n, flags);
    else e.splice(i, 0, n, flags);
    this.tally(flags, 1);
  }

  private tally(flags: number, by: number): void {
    if ((flags & listed) !== 0) this.listedCount += by;
    if ((flags & listedPublic) !== 0) this.publicCount += by;
  }

  /** How many messages are listed (to agents: `includeInternal`). */
  count(includeInternal: boolean): number {
    return includeInternal ? this.listedCount : this.publicCount;
  }

  /** The numbers of the listed messages [offset, offset + limit), oldest first. */
  page(includeInternal: boolean, offset: number, limit: number): number[] {
    const mask = includeInternal ? listed : listedPublic;
    const out: number[] = [];
    const e = this.entries;
    let skip = offset;
    for (let i = 0; i < e.length && out.length < limit; i += 2) {
      if (((e[i + 1] as number) & mask) === 0) continue;
      if (skip > 0) skip -= 1;
      else out.push(e[i] as number);
    }
    return out;
  }

  /** The numbers of the listed messages that carry files, oldest first. */
  withFiles(includeInternal: boolean): number[] {
    const mask = (includeInternal ? listed : listedPublic) | filed;
    const out: number[] = [];
    const e = this.entries;
    for (let i = 0; i < e.length; i += 2) if (((e[i + 1] as number) & mask) === mask) out.push(e[i] as number);
    return out;
  }
}
