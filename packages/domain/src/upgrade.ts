// Records are stored for years: a record written before a field existed is read back without
// it. Each record type names the fields it has had since its stores' first format, and gives
// every field added since a value that such a record is read back with (its upgrade). A field
// added to a type and forgotten there fails the build: `Upgrades` asks for it by name.
// A change that a default cannot express (a field renamed, split, or re-keyed) needs a new
// format number instead (docs/recipes.md#stored-format).

/** The value each field of T added since format 1 (the fields named by Since) takes in an older record. */
export type Upgrades<T, Since extends keyof T> = { readonly [K in Exclude<keyof T, Since>]: T[K] };

/** A record of T as a store may give it back: written before some fields existed, it lacks them. */
export type Stored<T, Since extends keyof T> = Pick<T, Since> & Partial<Omit<T, Since>>;

/** The upgrade step of a record type: fills in each missing field added since format 1 with its value. */
export const upgrading =
  <T, Since extends keyof T>(upgrades: Upgrades<T, Since>) =>
  (stored: Stored<T, Since>): T => {
    const missing = Object.entries(upgrades).filter(([k]) => (stored as Record<string, unknown>)[k] === undefined);
    return (missing.length === 0 ? stored : { ...stored, ...Object.fromEntries(missing) }) as T;
  };
