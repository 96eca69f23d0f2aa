// What every blob store shares (application port BlobStore): the holds `keep` takes until the
// record naming the bytes is committed, and one lock per key, so that a keep and an erasure of
// the same bytes never interleave. With both, an erasure that asked the records and found no
// name, and no hold, cannot race a new upload of the same content: that upload's keep waits
// for the lock, then writes the bytes again.

export class BlobHolds {
  private readonly holds = new Map<string, number>();
  private readonly locks = new Map<string, Promise<void>>();

  /** Runs `work` while no other work on `key` runs. */
  async locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    let done = (): void => undefined;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const chained = before.then(() => mine);
    this.locks.set(key, chained);
    await before;
    try {
      return await work();
    } finally {
      done();
      if (this.locks.get(key) === chained) this.locks.delete(key);
    }
  }

  /** Takes a hold on `key`; the answer ends it (once). */
  hold(key: string): { readonly key: string; release(): void } {
    this.holds.set(key, (this.holds.get(key) ?? 0) + 1);
    let released = false;
    return {
      key,
      release: () => {
        if (released) return;
        released = true;
        const n = (this.holds.get(key) ?? 1) - 1;
        if (n === 0) this.holds.delete(key);
        else this.holds.set(key, n);
      },
    };
  }

  isHeld(key: string): boolean {
    return this.holds.has(key);
  }

  /** Erases through `erase` unless held or still referenced, under the key's lock. */
  eraseUnlessNamed(
    key: string,
    stillReferenced: () => Promise<boolean>,
    erase: () => Promise<boolean>,
  ): Promise<boolean> {
    return this.locked(key, async () => {
      if (this.isHeld(key) || (await stillReferenced()) || this.isHeld(key)) return false;
      return erase();
    });
  }
}
