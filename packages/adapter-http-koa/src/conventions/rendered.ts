// What render makes of a Reply, for pipeline/respond.ts to write.

export interface Rendered {
  readonly status: number;
  /** The bytes to send (gzipped when negotiated); null: no body (a 304, a 204). */
  readonly body: Buffer | null;
  /** Instead of `body`: bytes streamed from the store (an attachment's content). */
  readonly stream?: StreamedBody;
}

/** A body streamed as it is read: never held whole (contract §9). */
export interface StreamedBody {
  readonly contentType: string;
  /** Content-Length: the bytes `open` yields. */
  readonly length: number;
  open(): Promise<AsyncIterable<Uint8Array>>;
}
