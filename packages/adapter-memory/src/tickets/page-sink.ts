import type { Ticket } from '@support/domain';

/** Receives matching tickets in order: skips the first `skip`, keeps the next `take`. */
export class PageSink {
  readonly items: Ticket[] = [];

  constructor(
    public skip: number,
    private readonly take: number,
  ) {}

  isFull(): boolean {
    return this.items.length >= this.take;
  }

  /** The next ticket in order; answers whether the page is now full. */
  offer(t: Ticket): boolean {
    if (this.skip > 0) this.skip -= 1;
    else this.items.push(t);
    return this.isFull();
  }
}
