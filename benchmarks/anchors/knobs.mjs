// A benchmark's settings from the environment: a whole number at or above a floor, or the run
// stops at once saying which variable is wrong (a typo must not measure something else).

/** process.env[name] as a whole number >= min, `fallback` when unset; exits 2 otherwise. */
export const knob = (name, fallback, min) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min) {
    console.error(`${name} must be a whole number >= ${min} (got ${process.env[name]})`);
    process.exit(2);
  }
  return value;
};
