export {};
//# sourceMappingURL=id-sequence.js.map