// What render makes of a Reply, for pipeline/respond.ts to keep (Idempotency-Key) and write.

export interface Rendered {
  readonly status: number;
  /** The bytes to send (gzipped when negotiated); null: no body (a 304, a 204). */
  readonly body: Buffer | null;
  /** The body before compression: what an Idempotency-Key keeps; null when there is none. */
  readonly plain: Buffer | null;
}
