// One linear pass over a JSON request body's text, before anything is built from it (contract
// §11: no body within 1 MiB may hold the event loop for more than ~50 ms; JSON.parse of
// 350,000 empty objects or 500,000 nested arrays takes longer than that on its own). It
//
// - validates the text against the JSON grammar (RFC 8259), without allocating per value;
// - refuses nesting deeper than `maxDepth` as soon as it is reached;
// - finds the first object name that repeats in its object, at any depth, after decoding
//   escapes ("a" = "\u0061"): I-JSON (RFC 7493 §2.3), since JSON.parse would keep the last of
//   two equal names without a word; and `__proto__`, which would reach an object's prototype
//   if code ever copied the body with assignment (the guard koa-body applied through bourne);
// - counts the values, so that the caller knows whether building all of them is cheap.
//
// An object's set of names is made only at its second name, and the stack has one reused
// slot per level, so 300,000 small objects cost no allocation each (json-names.ts).

import { decodedName, NameTable } from './json-names.js';

export type ScanResult =
  | { readonly ok: true; readonly values: number }
  | { readonly ok: false; readonly kind: 'syntax'; readonly message: string }
  | { readonly ok: false; readonly kind: 'deep' }
  | { readonly ok: false; readonly kind: 'duplicate' | 'forbidden'; readonly key: string; readonly pointer: string };

const forbiddenKey = '__proto__';

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const escapes: ReadonlySet<number> = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t

/**
 * One open array or object: an array's current index; an object's current name (where it is
 * in the text) and its names so far (the first alone, a table from the second on).
 */
interface Level {
  object: boolean;
  index: number;
  start: number;
  end: number;
  escaped: boolean;
  names: NameTable | null;
}

/** Whether the object at this level already has the name at start..end; records it otherwise. */
const seenBefore = (text: string, level: Level, start: number, end: number, escaped: boolean): boolean => {
  if (level.start < 0) return false;
  if (level.names === null) {
    level.names = new NameTable(text);
    level.names.addOrFind(level.start, level.end, level.escaped);
  }
  return level.names.addOrFind(start, end, escaped);
};

/** The RFC 6901 JSON Pointer of the object at `top` (the levels above it name the way down). */
const pointerOf = (text: string, levels: readonly Level[], top: number): string => {
  let pointer = '';
  for (let d = 0; d < top; d++) {
    const l = levels[d] as Level;
    const step = l.object
      ? decodedName(text, l.start, l.end, l.escaped).replace(/~/g, '~0').replace(/\//g, '~1')
      : String(l.index);
    pointer += `/${step}`;
  }
  return pointer;
};

class Syntax extends Error {}

/** Scans `text` as JSON; see the module's comment. */
export const scanJson = (text: string, maxDepth: number): ScanResult => {
  const n = text.length;
  const levels: Level[] = [];
  let top = -1;
  let values = 0;
  let i = 0;

  const fail = (what: string): never => {
    throw new Syntax(i >= n ? `unexpected end of the text (after ${n} characters)` : `${what} at position ${i}`);
  };
  const unexpected = (): never => fail(`unexpected ${JSON.stringify(String.fromCodePoint(text.codePointAt(i) ?? 0))}`);
  const skipWs = (): void => {
    while (i < n && isWs(text.charCodeAt(i))) i += 1;
  };
  /** From the opening quote at i to after the closing one; whether an escape was seen. */
  const string = (): boolean => {
    let escaped = false;
    i += 1;
    for (;;) {
      if (i >= n) fail('');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail('a control character in a string');
      if (c === 0x5c) {
        escaped = true;
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) fail('a bad \\u escape');
          i += 6;
        } else if (escapes.has(e)) i += 2;
        else fail('a bad escape');
      } else i += 1;
    }
    i += 1;
    return escaped;
  };
  const digits = (): void => {
    if (!isDigit(text.charCodeAt(i))) unexpected();
    while (i < n && isDigit(text.charCodeAt(i))) i += 1;
  };
  const number = (): void => {
    if (text.charCodeAt(i) === 0x2d) i += 1; // -
    if (text.charCodeAt(i) === 0x30)
      i += 1; // 0
    else digits();
    if (text.charCodeAt(i) === 0x2e) {
      i += 1;
      digits();
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i += 1;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i += 1;
      digits();
    }
  };
  const literal = (word: string): void => {
    if (!text.startsWith(word, i)) unexpected();
    i += word.length;
  };
  const open = (object: boolean): boolean => {
    top += 1;
    if (top >= maxDepth) return false;
    const level = levels[top];
    if (level === undefined) levels.push({ object, index: 0, start: -1, end: -1, escaped: false, names: null });
    else {
      level.object = object;
      level.index = 0;
      level.start = -1;
      level.end = -1;
      level.escaped = false;
      level.names = null;
    }
    return true;
  };

  try {
    // `expect`: a value next ('value'), a name next ('key'), or what follows a value ('after').
    let expect: 'value' | 'key' | 'after' = 'value';
    for (;;) {
      skipWs();
      const c = text.charCodeAt(i);
      if (expect === 'value') {
        values += 1;
        if (c === 0x7b || c === 0x5b) {
          // { [
          if (!open(c === 0x7b)) return { ok: false, kind: 'deep' };
          i += 1;
          skipWs();
          const close = text.charCodeAt(i);
          if (close === (c === 0x7b ? 0x7d : 0x5d)) {
            i += 1;
            top -= 1;
            expect = 'after';
          } else expect = c === 0x7b ? 'key' : 'value';
        } else {
          if (c === 0x22) string();
          else if (c === 0x2d || isDigit(c)) number();
          else if (c === 0x74) literal('true');
          else if (c === 0x66) literal('false');
          else if (c === 0x6e) literal('null');
          else unexpected();
          expect = 'after';
        }
      } else if (expect === 'key') {
        if (c !== 0x22) unexpected();
        const start = i + 1;
        const escaped = string();
        const end = i - 1;
        const level = levels[top] as Level;
        if ((escaped || end - start === forbiddenKey.length) && decodedName(text, start, end, escaped) === forbiddenKey)
          return { ok: false, kind: 'forbidden', key: forbiddenKey, pointer: pointerOf(text, levels, top) };
        if (seenBefore(text, level, start, end, escaped))
          return {
            ok: false,
            kind: 'duplicate',
            key: decodedName(text, start, end, escaped),
            pointer: pointerOf(text, levels, top),
          };
        level.start = start;
        level.end = end;
        level.escaped = escaped;
        skipWs();
        if (text.charCodeAt(i) !== 0x3a) unexpected(); // :
        i += 1;
        expect = 'value';
      } else {
        if (top < 0) {
          if (i < n) unexpected();
          return { ok: true, values };
        }
        const level = levels[top] as Level;
        if (c === 0x2c) {
          // ,
          i += 1;
          if (level.object) expect = 'key';
          else {
            level.index += 1;
            expect = 'value';
          }
        } else if (c === (level.object ? 0x7d : 0x5d)) {
          i += 1;
          top -= 1;
        } else unexpected();
      }
    }
  } catch (e) {
    if (e instanceof Syntax) return { ok: false, kind: 'syntax', message: e.message };
    throw e;
  }
};
