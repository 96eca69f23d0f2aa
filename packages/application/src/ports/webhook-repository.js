export {};
//# sourceMappingURL=webhook-repository.js.map