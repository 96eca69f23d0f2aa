export {};
//# sourceMappingURL=event-log.js.map