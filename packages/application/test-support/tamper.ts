/**
 * Tries to change an object a store handed out. A store may hand out frozen objects (the
 * attempt then throws a TypeError) or copies (the attempt succeeds on the copy); either way
 * the stored record must stay as it was, which the caller checks next.
 */
export const tamper = (change: () => void): void => {
  try {
    change();
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
};
