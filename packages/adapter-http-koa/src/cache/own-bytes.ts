// Bytes the response cache keeps, in memory blocks of their own.

/**
 * Bytes in a memory block of their own, to be kept. Node hands out small buffers as slices of
 * a shared 8 KiB pool, and gzip's output as a slice of its 16 KiB output chunk: a kept slice
 * keeps the whole block alive, so 64 MiB of kept answers held over 1 GB (bench:anchors:memory).
 */
export const ownBytes = (b: Buffer): Buffer => {
  if (b.byteOffset === 0 && b.buffer.byteLength === b.length) return b;
  const own = Buffer.allocUnsafeSlow(b.length);
  b.copy(own);
  return own;
};

/** A string's UTF-8 bytes in a memory block of their own (see ownBytes). */
export const ownTextBytes = (text: string): Buffer => {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  own.write(text);
  return own;
};
