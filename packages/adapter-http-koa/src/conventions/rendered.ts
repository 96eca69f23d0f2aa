// What render makes of a Reply, for pipeline/respond.ts to write.

export interface Rendered {
  readonly status: number;
  /** The bytes to send (gzipped when negotiated); null: no body (a 304, a 204). */
  readonly body: Buffer | null;
}
