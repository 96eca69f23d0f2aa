/** Length in Unicode code points, so "é" or an emoji counts as one character. */
export const codePointLength = (s: string): number => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

/**
 * Compares strings by Unicode code point, which is the order of their UTF-8 bytes:
 * the order MongoDB uses without a collation, so every store sorts text alike.
 */
export const compareText = (a: string, b: string): number => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (0xD800-0xDFFF) encode code points above 0xFFFF, which sort after
    // 0xE000-0xFFFF; plain UTF-16 comparison would put them before.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
};
