export {};
//# sourceMappingURL=application.js.map