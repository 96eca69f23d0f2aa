export {};
//# sourceMappingURL=rate-limit-counter.js.map