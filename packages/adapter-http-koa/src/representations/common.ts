// Pieces shared by every representation.

/** A related resource that exists on its own appears as a link object. */
export interface Link {
  readonly id: number;
  readonly url: string;
}

export const link = (id: number, url: string): Link => ({ id, url });

/** ISO 8601 in UTC with milliseconds, e.g. 2026-11-22T18:59:29.123Z. */
export const timestamp = (ms: number): string => new Date(ms).toISOString();

export const nullableTimestamp = (ms: number | null): string | null => (ms === null ? null : timestamp(ms));

/** Only the named keys of a representation, in the representation's own order. */
export const pick = (full: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(full)) if (keys.includes(k)) out[k] = full[k];
  return out;
};
