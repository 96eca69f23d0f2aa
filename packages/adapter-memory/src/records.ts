/** A record's key in its table: a number, a string, or a tuple of them (a message: ticket id and number). */
export type RecordKey = number | string | readonly (number | string)[];

/** One record a port call wrote (`value`) or removed (`value` undefined). Values are plain data, never changed in place. */
export interface RecordChange {
  readonly table: string;
  readonly key: RecordKey;
  readonly value: unknown;
}
