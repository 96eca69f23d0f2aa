// Responses differ by content coding, by caller and by minor version, so shared caches
// must key on those; private caches must revalidate (ETag/Last-Modified make that cheap).
// Token answers must not be stored anywhere (RFC 6749 §5.1).

export const varyHeader = 'Accept-Encoding, Authorization, X-Api-Version';
export const revalidate = 'private, no-cache';
export const noStore = 'no-store';
