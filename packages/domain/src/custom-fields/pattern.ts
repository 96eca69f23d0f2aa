import * as E from 'fp-ts/lib/Either.js';
import { RE2JS } from 're2js';

// The `pattern` of a regexp field, in RE2 syntax, run by re2js: a linear-time engine (no
// backtracking), so no pattern an admin writes can make a value take exponential time, as
// with GitHub's rulesets. A value matches when the pattern matches somewhere in it (as JSON
// Schema's `pattern` does): anchor it with ^ and $ to match the whole value.

export type PatternTest = (value: string) => boolean;

const compiled = new Map<string, PatternTest>();

/** The test of a pattern, or why RE2 refuses it. Compiled once per pattern (definitions are few). */
export const compilePattern = (pattern: string): E.Either<string, PatternTest> => {
  const known = compiled.get(pattern);
  if (known !== undefined) return E.right(known);
  try {
    const re = RE2JS.compile(pattern);
    const test: PatternTest = (value) => re.test(value);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, test);
    return E.right(test);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return E.left(message.replace(/^error parsing regexp: /, ''));
  }
};
