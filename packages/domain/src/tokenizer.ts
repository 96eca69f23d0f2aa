// The one search tokenizer: every store indexes and queries the words it produces,
// so every store returns the same matches.

const marks = /\p{M}/gu;
// The Greek iota subscript/adscript is a combining mark (U+0345) that case folding maps to
// iota (ι): "ᾳ" upper-cases to "ΑΙ", so it must fold to "αι", not lose the iota as an accent.
const iotaSubscript = /\u0345/g;
const wordRun = /[\p{L}\p{N}]+/gu;

/**
 * Case- and accent-insensitive form of a text: full case folding approximated by
 * lower-, upper-, then lower-casing (so "ß", "ẞ" and "SS" agree: the capital sharp s
 * U+1E9E upper-cases to itself and lower-cases to "ß", which only then upper-cases to
 * "SS"), final sigma folded to sigma,
 * compatibility decomposition (ligatures, full-width forms) with combining marks removed
 * (except the iota subscript, which becomes ι).
 */
export const foldText = (text: string): string => (ascii.test(text) ? text.toLowerCase() : foldUnicode(text));

// Printable ASCII (and tab, CR, LF) has no marks, no compatibility forms and one-to-one case mappings: its fold is its
// lower case. Most stored text is ASCII, and the full fold costs about ten times as much
// (it rebuilds the string nine times), which a start-up pays for every stored ticket.
const ascii = /^[ -~\t\n\r]*$/;

const foldUnicode = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(iotaSubscript, 'ι')
    .replace(marks, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .normalize('NFKD')
    .replace(marks, '');

/** Words of a text: maximal runs of Unicode letters and digits, folded. In text order, repeats kept. */
export const tokenize = (text: string): string[] => foldText(text).match(wordRun) ?? [];

/** The distinct words of several texts, in first-seen order. */
export const distinctWords = (...texts: readonly string[]): string[] => {
  const seen = new Set<string>();
  for (const text of texts) for (const w of tokenize(text)) seen.add(w);
  return [...seen];
};
