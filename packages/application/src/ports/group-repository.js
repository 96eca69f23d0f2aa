export {};
//# sourceMappingURL=group-repository.js.map