import type { CustomValue, CustomValues } from '@support/domain';

// Map: derived: the JSON skeleton of each set of field ids seen (bounded), rebuilt as tickets come
const skeletons = new Map<string, string>();
const maxSkeletons = 4096;

/**
 * A copy of a ticket's custom values that V8 keeps in the least room. Field ids are integer
 * keys, which V8 keeps as elements; an object given them one by one (a decoder's, a spread's)
 * grows its elements by half again plus 16 (about 450 bytes for 17 values), while JSON.parse
 * sizes them exactly (about 240). So the copy is parsed from a skeleton of its ids (one string
 * per set of ids, kept), then given the values, which replace in place and grow nothing.
 */
export const compactCopy = (values: CustomValues): Record<string, CustomValue> => {
  const keys = Object.keys(values);
  const signature = keys.join(',');
  let skeleton = skeletons.get(signature);
  if (skeleton === undefined) {
    skeleton = `{${keys.map((k) => `${JSON.stringify(k)}:0`).join(',')}}`;
    if (skeletons.size < maxSkeletons) skeletons.set(signature, skeleton);
  }
  const copy = JSON.parse(skeleton) as Record<string, CustomValue>;
  for (const k of keys) copy[k] = values[k] as CustomValue;
  return copy;
};
