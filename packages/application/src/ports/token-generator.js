export {};
//# sourceMappingURL=token-generator.js.map