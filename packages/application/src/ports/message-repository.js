export {};
//# sourceMappingURL=message-repository.js.map