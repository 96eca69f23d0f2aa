import type { Email, UserId } from '@support/domain';
import type { Application } from './application.js';
import type { Ports } from './ports/index.js';

/** Creates the first admin when the store holds no user yet. True when it did. */
export const ensureFirstAdmin = async (
  ports: Ports,
  email: Email,
  password: string,
  beforeCreate?: () => Promise<void>,
): Promise<boolean> => {
  if ((await ports.users.count()) > 0) return false;
  // E.g. keeping a generated password where the operator finds it, before an admin exists that needs it.
  await beforeCreate?.();
  const now = ports.clock.now();
  const result = await ports.users.insert({
    id: (await ports.ids.next('user')) as UserId,
    name: 'Administrator',
    email,
    role: 'admin',
    groupIds: [],
    passwordHash: await ports.passwords.hash(password),
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  return result === 'ok';
};

/** The set-up use cases. */
export const setupUseCases = (ports: Ports): Application['setup'] => ({
  ensureFirstAdmin: (email, password, beforeCreate) => ensureFirstAdmin(ports, email, password, beforeCreate),
});
