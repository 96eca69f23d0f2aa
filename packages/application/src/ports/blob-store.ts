// Where the bytes of uploaded files live (contract §9): never in a JSON record. The records
// (AttachmentRepository) name their bytes by the key `keep` answers. Bytes pass through as
// async iterables of chunks, never whole: the service's memory does not grow with a file.

/** Bytes received and hashed, not yet kept: kept, or discarded (then nothing of them is left). */
export interface StagedBlob {
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
  readonly size: number;
  /** The staged bytes from the start (a malware scanner reads them before they are kept). */
  read(): AsyncIterable<Uint8Array>;
  /**
   * Makes the bytes durable (on a durable store: synced to disk before this resolves, so a record
   * committed afterwards never names missing bytes) and answers their key. The key stays held,
   * out of `erase`'s reach, until `release`: the caller commits the record naming it in between.
   */
  keep(): Promise<HeldBlob>;
  /** Throws the staged bytes away. */
  discard(): Promise<void>;
}

export interface HeldBlob {
  readonly key: string;
  /** Ends the hold taken by `keep` (once the record naming the key is committed, or was refused). */
  release(): void;
}

export type StageOutcome =
  | { readonly kind: 'staged'; readonly blob: StagedBlob }
  /** The source passed `maxBytes`: reading stopped there and nothing was kept. */
  | { readonly kind: 'too_large' };

/** An inclusive byte range of a blob. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface BlobStore {
  /**
   * Reads `source` to its end, hashing it, and stages it; stops reading as soon as more than
   * `maxBytes` arrived. A source that throws leaves nothing staged and the error propagates.
   * `taken`, when given, is called with each chunk once the store has its bytes (copied or
   * written) and reads that chunk no more: the source may then reuse or free its memory. A store
   * that cannot promise that of a chunk does not call it.
   */
  stage(
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
    taken?: (chunk: Uint8Array) => void,
  ): Promise<StageOutcome>;
  /** The bytes under `key` (or the inclusive range of them), streamed; null when no such blob. */
  open(key: string, range?: ByteRange): Promise<AsyncIterable<Uint8Array> | null>;
  /**
   * Erases the bytes under `key` unless a `keep` holds them or `stillReferenced` (asked while no
   * `keep` of the same key can run) says a record names them. True when erased.
   */
  erase(key: string, stillReferenced: () => Promise<boolean>): Promise<boolean>;
  /**
   * The keys of kept blobs no record names (`referenced` says false) and no `keep` holds: bytes
   * a crash between `keep` and the record's commit left behind. Blobs kept within the last
   * `graceMs` are left out (another process may be about to commit their record).
   */
  orphans(referenced: (key: string) => Promise<boolean>, graceMs: number): Promise<readonly string[]>;
}
