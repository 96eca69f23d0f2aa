export {};
//# sourceMappingURL=token-store.js.map