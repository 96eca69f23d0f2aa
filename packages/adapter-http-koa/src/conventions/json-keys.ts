// I-JSON (RFC 7493 §2.3): the names in an object must be unique. JSON.parse keeps the last
// of two equal names without a word, so a body like {"subject":"a","subject":"b"} would
// mean whatever the last one says. This scanner finds the first name that repeats in its
// object, at any depth, comparing names after their escapes are decoded ("a" = "\u0061").
//
// It runs only over text that JSON.parse accepted, so it does not validate: it walks the
// text once, keeping one set of names per open object.

export type KeyProblem =
  | { readonly kind: 'duplicate'; readonly key: string; readonly pointer: string }
  | { readonly kind: 'forbidden'; readonly key: string; readonly pointer: string };

type Frame =
  { readonly object: true; readonly keys: Set<string>; key: string } | { readonly object: false; index: number };

// Names that would reach an object's prototype if code ever copied the body into an object
// with assignment (the guard koa-body applied through @hapi/bourne).
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__']);

const quote = 0x22; // "
const backslash = 0x5c; // \
const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** The RFC 6901 JSON Pointer of the object the innermost frame is (the frames above it name the way down). */
const pointerOf = (frames: readonly Frame[]): string =>
  frames
    .slice(0, -1)
    .map((f) => `/${f.object ? f.key.replace(/~/g, '~0').replace(/\//g, '~1') : String(f.index)}`)
    .join('');

/** The first repeated (or forbidden) object name in `text`, which must be valid JSON; undefined when there is none. */
export const findKeyProblem = (text: string): KeyProblem | undefined => {
  const frames: Frame[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === quote) {
      // The string runs to the next quote that no backslash escapes.
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === backslash) {
          escaped = true;
          j += 2;
        } else if (d === quote) break;
        else j += 1;
      }
      const top = frames.at(-1);
      if (top?.object === true) {
        // In an object, a string followed by ':' is a name; any other is a value.
        let k = j + 1;
        while (k < n && isWhitespace(text.charCodeAt(k))) k += 1;
        if (text.charCodeAt(k) === 0x3a) {
          const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
          if (forbiddenKeys.has(key)) return { kind: 'forbidden', key, pointer: pointerOf(frames) };
          if (top.keys.has(key)) return { kind: 'duplicate', key, pointer: pointerOf(frames) };
          top.keys.add(key);
          top.key = key;
        }
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b)
      frames.push({ object: true, keys: new Set(), key: '' }); // {
    else if (c === 0x5b)
      frames.push({ object: false, index: 0 }); // [
    else if (c === 0x7d || c === 0x5d)
      frames.pop(); // } ]
    else if (c === 0x2c) {
      // ,
      const top = frames.at(-1);
      if (top !== undefined && !top.object) top.index += 1;
    }
    i += 1;
  }
  return undefined;
};
