export {};
//# sourceMappingURL=views.js.map