export {};
//# sourceMappingURL=ticket-repository.js.map