import type { Ticket } from '@support/domain';

/**
 * Receives matching tickets' ids in order: skips the first `skip`, keeps the next `take`,
 * reading the row (`row`) of a kept one only.
 */
export class PageSink {
  readonly items: Ticket[] = [];

  constructor(
    public skip: number,
    private readonly take: number,
    private readonly row: (id: number) => Ticket,
  ) {}

  isFull(): boolean {
    return this.items.length >= this.take;
  }

  /** The next matching id in order; answers whether the page is now full. */
  offer(id: number): boolean {
    if (this.skip > 0) this.skip -= 1;
    else this.items.push(this.row(id));
    return this.isFull();
  }
}
