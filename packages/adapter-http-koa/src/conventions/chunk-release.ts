import { MessageChannel, type MessagePort } from 'node:worker_threads';

// Frees the memory of an upload's body chunk as soon as the blob store has its bytes, without
// waiting for a garbage collection (figures: docs/benchmarks.md, "Attachments", 2026-11-28
// night).
//
// Node's HTTP parser hands every ~16 KiB of a request body to JavaScript in an ArrayBuffer of its
// own. V8 counts those buffers against the old generation's limit from their allocation until a
// collection frees them, and the young generation, grown to 16 MB, is rarely scavenged while
// uploads arrive: a burst of 50 MiB of uploads set off three to five mark-compacts of the whole
// heap one after the other, and a metadata read waited behind them.
//
// Transferring an ArrayBuffer detaches it, and V8 stops counting its bytes at once. A port whose
// other end is closed still serializes what is posted to it, transfers included (the HTML
// rule node follows), then drops the message: the bytes are freed there and then. Only a chunk
// that is its ArrayBuffer whole (what node's parser hands over for a raw body; a multipart
// body's file bytes that fill a request chunk, upload-body.ts) is freed this way: a slice of a
// larger buffer (a multipart chunk with a boundary in it, node's pool) is left to the collector.

let port: MessagePort | null = null;

/** A port that drops every message: its other end is closed. */
const closedPort = (): MessagePort => {
  if (port === null) {
    const channel = new MessageChannel();
    channel.port2.close();
    channel.port1.unref();
    port = channel.port1;
  }
  return port;
};

/**
 * Frees `chunk`'s memory now when it owns its ArrayBuffer whole; after this it reads as empty.
 * Only for chunks nobody reads any more (the blob store says so: BlobStore.stage's `taken`).
 */
export const freeChunk = (chunk: Uint8Array): void => {
  const { buffer } = chunk;
  if (!(buffer instanceof ArrayBuffer) || chunk.byteOffset !== 0 || chunk.byteLength !== buffer.byteLength) return;
  if (buffer.byteLength === 0) return;
  try {
    closedPort().postMessage(undefined, [buffer]);
  } catch {
    // A buffer marked untransferable stays as it is: the collector frees it.
  }
};
