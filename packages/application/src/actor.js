export const actorId = (a) => a.user.id;
export const actorRole = (a) => a.user.role;
//# sourceMappingURL=actor.js.map