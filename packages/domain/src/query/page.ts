export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}

/** `page` counts from 1; `per_page` is 30 unless asked for, at most 100. */
export const pageBounds = { defaultPerPage: 30, maxPerPage: 100, maxPage: 2_147_483_647 } as const;

export const pageOffset = (p: PageRequest): number => (p.page - 1) * p.perPage;

/** The number of the last page (at least 1, so an empty list still has a first and last page). */
export const lastPage = (total: number, perPage: number): number => Math.max(1, Math.ceil(total / perPage));
