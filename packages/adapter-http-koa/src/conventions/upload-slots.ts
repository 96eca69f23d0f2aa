// How many uploads are read at once (UPLOAD_CONCURRENCY; upload-pacing.ts uses it): `limit`
// slots, handed out in the order they were asked for; an upload coming back after its client
// paused, and fast until then, asks ahead of the others (upload-pacing.ts decides which).

export interface SlotTurn {
  /** Settles when the slot is the caller's. */
  readonly granted: Promise<void>;
  /**
   * Withdraws the request when the slot was not granted yet (true: nothing is held); false
   * when it was (the caller holds it and gives it back).
   */
  cancel(): boolean;
}

export interface UploadSlots {
  /** Asks for a slot; `returning` asks ahead of the uploads waiting already. */
  take(returning: boolean): SlotTurn;
  /** Gives a held slot back (to the next in line, if any). */
  give(): void;
  /** How many slots are held, and how many requests wait (tests, logs). */
  readonly usage: () => { held: number; waiting: number };
}

export const uploadSlots = (limit: number): UploadSlots => {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`upload slots: ${String(limit)} is not a count >= 1`);
  let held = 0;
  const waiting: { grant: () => void; granted: boolean }[] = [];
  return {
    take: (returning) => {
      if (held < limit) {
        held += 1;
        return { granted: Promise.resolve(), cancel: () => false };
      }
      let grant = (): void => undefined;
      const granted = new Promise<void>((resolve) => (grant = resolve));
      const entry = {
        granted: false,
        grant: () => {
          entry.granted = true;
          grant();
        },
      };
      if (returning) waiting.unshift(entry);
      else waiting.push(entry);
      return {
        granted,
        cancel: () => {
          if (entry.granted) return false;
          waiting.splice(waiting.indexOf(entry), 1);
          return true;
        },
      };
    },
    give: () => {
      const next = waiting.shift();
      if (next === undefined) held -= 1;
      else next.grant();
    },
    usage: () => ({ held, waiting: waiting.length }),
  };
};
