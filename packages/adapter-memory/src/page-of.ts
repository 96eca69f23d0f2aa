import type { Page } from '@support/application';
import type { SortedList } from './sorted-list.js';

/** The page [offset, offset + limit) of an id list (none: an empty list), read through `read`. */
export const pageOf = <T>(
  ids: SortedList<number> | undefined,
  offset: number,
  limit: number,
  read: (id: number) => T,
): Page<T> => {
  if (ids === undefined) return { items: [], total: 0 };
  const start = Math.max(0, offset);
  return { items: ids.slice(start, start + Math.max(0, limit)).map(read), total: ids.size };
};
