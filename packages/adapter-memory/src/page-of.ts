import type { Page } from '@support/application';
import { pageBounds } from '@support/domain';
import type { SortedList } from './sorted-list.js';

/** The store's side of the paging limit (the Page port's promise): never walk past it. */
export const checkOffset = (offset: number): void => {
  if (offset >= pageBounds.maxOffset)
    throw new RangeError(`a page must start before item ${pageBounds.maxOffset} (offset ${offset})`);
};

/** The page [offset, offset + limit) of an id list (none: an empty list), read through `read`. */
export const pageOf = <T>(
  ids: SortedList<number> | undefined,
  offset: number,
  limit: number,
  read: (id: number) => T,
): Page<T> => {
  checkOffset(offset);
  if (ids === undefined) return { items: [], total: 0 };
  const start = Math.max(0, offset);
  return { items: ids.slice(start, start + Math.max(0, limit)).map(read), total: ids.size };
};
