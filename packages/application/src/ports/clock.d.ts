export interface Clock {
    /** Epoch milliseconds. */
    now(): number;
}
//# sourceMappingURL=clock.d.ts.map