export {};
//# sourceMappingURL=webhook-sender.js.map