// Instants are epoch milliseconds in the core and BSON Dates in the documents.
export const toDate = (ms: number): Date => new Date(ms);
export const toDateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));
export const fromDateOrNull = (d: Date | null): number | null => (d === null ? null : d.getTime());
