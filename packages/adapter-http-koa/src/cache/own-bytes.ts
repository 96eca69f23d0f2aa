// Bytes the response cache keeps, in memory blocks of their own.

/**
 * A string's UTF-8 bytes in a memory block of their own, to be kept. Node hands out small
 * buffers as slices of a shared 8 KiB pool: a kept slice keeps the whole block alive, so 64 MiB
 * of kept answers held over 1 GB (bench:anchors:memory). (A gzip, a slice of zlib's 16 KiB
 * output chunk, is copied by the cache's addGzip into one block with these bytes.)
 */
export const ownTextBytes = (text: string): Buffer => {
  const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  own.write(text);
  return own;
};
