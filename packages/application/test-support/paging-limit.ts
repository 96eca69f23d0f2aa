import { pageBounds } from '@support/domain';
import { expect } from 'chai';
import type { Page } from '../src/index.js';

/**
 * The paging limit every list of every store keeps (see the Page port): a page that starts
 * before `pageBounds.maxOffset` is served, one that starts at or past it rejects with a
 * RangeError naming the limit, before the store walks anything.
 */
export const expectPagingLimit = async (
  list: (offset: number, limit: number) => Promise<Page<unknown>>,
  total: number,
): Promise<void> => {
  expect(await list(pageBounds.maxOffset - 1, 5)).to.deep.equal({ items: [], total });
  for (const offset of [pageBounds.maxOffset, pageBounds.maxOffset + 1, 2 ** 31 * 100]) {
    const refused: unknown = await list(offset, 5).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused, `offset ${offset}`).to.be.instanceOf(RangeError);
    expect((refused as Error).message).to.include(String(pageBounds.maxOffset));
  }
};
