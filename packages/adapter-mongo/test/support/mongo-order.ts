// MongoDB's documented sort order, written out independently of the adapter and of the
// domain's compareText, for the value types the adapter sorts on.
//
// Why not mingo's sort: mingo compares strings with JavaScript's `<` (UTF-16 code units),
// which puts U+10000 and above (surrogate pairs, e.g. emoji) before U+E000-U+FFFF, while
// MongoDB without a collation compares the UTF-8 bytes (code point order). Mingo also
// orders a missing field before null, where MongoDB treats them as equal. The cross-check
// must be faithful to MongoDB, so sorting uses this comparator; mingo does the filtering,
// and a separate test pins where mingo's own sort agrees and where it does not.
//
// Sources: "Comparison/Sort Order" in the MongoDB manual: MinKey < Null (and missing) <
// Numbers < Symbol, String < Object < Array < BinData < ObjectId < Boolean < Date <
// Timestamp < Regular Expression < MaxKey; strings by simple binary comparison of UTF-8
// unless a collation is given.

import { ObjectId } from 'mongodb';

type Sortable = null | undefined | number | string | boolean | Date | ObjectId;

const typeRank = (v: Sortable): number => {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (v instanceof ObjectId) return 7;
  if (typeof v === 'boolean') return 8;
  return 9; // Date
};

export const bsonCompare = (a: Sortable, b: Sortable): number => {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string')
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  // ObjectIds by their 12 bytes (time first, so creation order within a process).
  if (a instanceof ObjectId && b instanceof ObjectId) return Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
  return 0; // null and missing
};

/** Documents in the order a MongoDB sort document gives them. */
export const mongoSort = <D extends object>(docs: readonly D[], sort: Readonly<Record<string, 1 | -1>>): D[] =>
  [...docs].sort((x, y) => {
    for (const [path, direction] of Object.entries(sort)) {
      const c = bsonCompare((x as Record<string, Sortable>)[path], (y as Record<string, Sortable>)[path]);
      if (c !== 0) return direction * c;
    }
    return 0;
  });
