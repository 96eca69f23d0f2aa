export interface IdSequence {
    /** The next integer of the named sequence (1, 2, 3...): never repeated, even across processes. */
    next(name: string): Promise<number>;
}
//# sourceMappingURL=id-sequence.d.ts.map