import { hash } from 'node:crypto';

// A strong entity tag derived from the content of a representation: the compact JSON of
// what is sent, before pretty-printing and compression, so `pretty=false` and gzip do not
// change it, while any change of the content does. SHA-1 here is a fingerprint, not a
// security measure: fast, and collisions would need an attacker writing our JSON.

export const strongEtag = (content: string): string => `"${hash('sha1', content, 'base64url')}"`;

/** The ETag of a resource's plain representation (what GET without parameters answers). */
export const etagOf = (representation: unknown): string => strongEtag(JSON.stringify(representation));

interface EntityTag {
  readonly weak: boolean;
  readonly opaque: string;
}

/** The tags of an If-Match / If-None-Match header; null for "*". */
const parseTags = (header: string): EntityTag[] | null => {
  if (header.trim() === '*') return null;
  const tags: EntityTag[] = [];
  for (const m of header.matchAll(/(W\/)?("[^"]*")/g)) tags.push({ weak: m[1] !== undefined, opaque: m[2] ?? '' });
  return tags;
};

/** If-None-Match uses the weak comparison: W/"x" matches "x" (RFC 9110 §13.1.2). */
export const noneMatch = (header: string, etag: string): boolean => {
  // The usual revalidation sends back exactly the tag it was given.
  if (header === etag) return true;
  const tags = parseTags(header);
  return tags === null || tags.some((t) => t.opaque === etag);
};

/** If-Match uses the strong comparison: a weak tag never matches (RFC 9110 §13.1.1). */
export const ifMatchHolds = (header: string, etag: string): boolean => {
  const tags = parseTags(header);
  return tags === null || tags.some((t) => !t.weak && t.opaque === etag);
};
