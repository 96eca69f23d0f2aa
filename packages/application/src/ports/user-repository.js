export {};
//# sourceMappingURL=user-repository.js.map