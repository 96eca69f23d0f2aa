export {};
//# sourceMappingURL=idempotency-store.js.map