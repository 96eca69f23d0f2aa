// Responses differ by content coding and by caller, so caches must key on those (the
// contract's exact value); private caches must revalidate (ETag/Last-Modified make that
// cheap). X-Api-Version is not listed: every answer is no-cache and its ETag comes from
// its content, so a minor version that answered differently would fail revalidation.
// Token answers must not be stored anywhere (RFC 6749 §5.1).

export const varyHeader = 'Accept-Encoding, Authorization';
export const revalidate = 'private, no-cache';
export const noStore = 'no-store';

/**
 * The token endpoints. Every answer of theirs is no-store, a refusal before the route too (a
 * bad query parameter, an unknown X-Api-Version): the document promises it, and a client
 * must never find a token endpoint's answer in a cache. The suffix in any case, as format-suffix.ts drops it.
 */
export const isTokenEndpoint = (path: string): boolean =>
  /^\/v1\/oauth\/(token|revoke)(\.[jJ][sS][oO][nN])?\/?$/.test(path);
