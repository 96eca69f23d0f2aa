import type { Document } from 'mongodb';
import { indexSpecs, type IndexSpec } from '../../src/indexes.js';
import type { CollectionKey } from '../../src/collections.js';

// MongoDB's rules for serving a query from an index, written out from the manual, so that a
// query the adapter sends can be checked against the declared indexes without a mongod:
//
// - Index bounds: a filter field bound to one value (or an `$elemMatch` member of an array's
//   element, for the compound multikey index over `cf.k`, `cf.v`) (`{f: v}`, `{f: null}`, `{f: {$eq: v}}`,
//   an `$all` of values on a multikey field) is an equality point; `$in` is a set of points;
//   `$gt/$gte/$lt/$lte/$ne/$not` are ranges. ("Create Indexes to Support Your Queries", ESR.)
// - Sort ("Use Indexes to Sort Query Results"): an index provides a sort when the sort keys
//   equal a run of consecutive index keys, with every direction the same as the index's or
//   every one reversed, and every index key before that run is bound to points ("Sort and
//   Non-prefix Subset of an Index"). A sort key bound to a single point is constant and drops
//   out of the sort. When a key before the run is a set of points (`$in`), MongoDB scans each
//   point and merges the sorted streams (SORT_MERGE, up to 200 points) instead of sorting.
// - A query scans only part of an index when the index's first key is bound (a point, a set
//   of points or a range); otherwise it is a full scan, which this code base never wants.

export type Direction = 1 | -1;
export type SortDocument = Readonly<Record<string, Direction>>;

type Bound = 'point' | 'points' | 'range' | 'none';

const operatorKeys = (v: unknown): string[] | null => {
  if (typeof v !== 'object' || v === null || v instanceof Date || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$')) ? keys : null;
};

/** How a filter bounds one field, taking every top-level condition (and `$and` members) into account. */
export const boundOf = (filter: Document, field: string): Bound => {
  const conditions: unknown[] = [];
  const parts = [filter, ...(Array.isArray(filter['$and']) ? (filter['$and'] as Document[]) : [])];
  for (const part of parts) if (field in part) conditions.push(part[field]);
  // A field of an array's elements (`cf.k`) is bound by an $elemMatch on the array (`cf`):
  // the index keys of one element are bounded together (a compound multikey index).
  const dot = field.indexOf('.');
  if (dot > 0)
    for (const part of parts) {
      const matched = operatorKeys(part[field.slice(0, dot)])?.includes('$elemMatch')
        ? ((part[field.slice(0, dot)] as Document)['$elemMatch'] as Document)
        : null;
      const sub = field.slice(dot + 1);
      if (matched !== null && sub in matched) conditions.push(matched[sub]);
    }
  let best: Bound = 'none';
  const rank: Record<Bound, number> = { none: 0, range: 1, points: 2, point: 3 };
  for (const c of conditions) {
    const ops = operatorKeys(c);
    let b: Bound;
    if (ops === null) b = 'point';
    else if (ops.includes('$eq')) b = 'point';
    else if (ops.includes('$all')) b = ((c as Document)['$all'] as unknown[]).length > 0 ? 'point' : 'none';
    else if (ops.includes('$in')) b = ((c as Document)['$in'] as unknown[]).length === 1 ? 'point' : 'points';
    else if (ops.some((o) => ['$gt', '$gte', '$lt', '$lte', '$ne', '$not'].includes(o))) b = 'range';
    else b = 'none';
    if (rank[b] > rank[best]) best = b;
  }
  return best;
};

export const indexesOf = (collection: CollectionKey): IndexSpec[] => [
  { collection, name: '_id_', key: { _id: 1 } },
  ...indexSpecs.filter((s) => s.collection === collection),
];

/** The index a hint names (by name or by key pattern, in order), if it is declared. */
export const hintedIndex = (collection: CollectionKey, hint: unknown): IndexSpec | undefined =>
  indexesOf(collection).find((s) =>
    typeof hint === 'string'
      ? s.name === hint
      : typeof hint === 'object' &&
        hint !== null &&
        JSON.stringify(Object.entries(s.key)) === JSON.stringify(Object.entries(hint)),
  );

/** Why the index cannot serve the sort without a SORT stage, or null when it can. */
export const sortRefusal = (index: IndexSpec, filter: Document, sort: SortDocument): string | null => {
  const keys = Object.entries(index.key);
  const wanted = Object.entries(sort).filter(([field]) => boundOf(filter, field) !== 'point');
  if (wanted.length === 0) return null;
  const [firstField] = wanted[0]!;
  const at = keys.findIndex(([k]) => k === firstField);
  if (at < 0) return `${index.name} has no key ${firstField}`;
  const run = keys.slice(at, at + wanted.length);
  if (JSON.stringify(run.map(([k]) => k)) !== JSON.stringify(wanted.map(([f]) => f))) {
    return `${index.name}: the sort keys ${wanted.map(([f]) => f).join(',')} are not consecutive index keys from ${firstField}`;
  }
  const same = run.every(([, d], i) => d === wanted[i]![1]);
  const reversed = run.every(([, d], i) => d === -wanted[i]![1]);
  if (!same && !reversed)
    return `${index.name}: the sort mixes directions the index has the same (or the index mixes them the other way)`;
  const unbound = keys.slice(0, at).filter(([k]) => boundOf(filter, k) !== 'point' && boundOf(filter, k) !== 'points');
  if (unbound.length > 0)
    return `${index.name}: ${unbound.map(([k]) => k).join(',')} before the sort keys is not bound to points`;
  return null;
};

/** Why the index would be scanned whole, or null when its first key is bound. */
export const scanRefusal = (index: IndexSpec, filter: Document): string | null => {
  const [first] = Object.keys(index.key);
  return first !== undefined && boundOf(filter, first) !== 'none'
    ? null
    : `${index.name}: its first key ${String(first)} is not bound by the filter`;
};

/**
 * Why a query (filter, optional sort, hint) is not served by its index alone, or null. A
 * sorted query may walk a whole index in its order (it stops at the page); an unsorted one
 * must bound the index's first key, unless it has no filter at all (counting everything).
 */
export const queryRefusal = (
  collection: CollectionKey,
  filter: Document,
  sort: SortDocument | undefined,
  hint: unknown,
): string | null => {
  const candidates =
    hint === undefined
      ? indexesOf(collection)
      : [hintedIndex(collection, hint)].filter((s): s is IndexSpec => s !== undefined);
  if (candidates.length === 0) return `the hint ${JSON.stringify(hint)} names no declared index of ${collection}`;
  const reasons: string[] = [];
  for (const index of candidates) {
    const everything = Object.keys(filter).length === 0;
    const reason =
      sort === undefined ? (everything ? null : scanRefusal(index, filter)) : sortRefusal(index, filter, sort);
    if (reason === null) return null;
    reasons.push(reason);
  }
  return reasons.join('; ');
};
