import type { PasswordHasher, Store } from '@support/application';
import { writeFileDurably } from '@support/adapter-embedded';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The file holding the first admin's generated password, in the data directory, until that admin changes it. */
export const initialPasswordFile = 'initial-admin-password';

/** Keeps the generated password (owner-only), whole or not at all and synced, before the admin that needs it is created. */
export const keepInitialPassword = (dir: string, password: string): Promise<void> =>
  writeFileDurably(join(dir, initialPasswordFile), `${password}\n`, 0o600);

const readKept = async (path: string): Promise<string | null> => {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
};

/**
 * Removes the kept password once it no longer opens the admin's account (the admin changed it,
 * or is gone): at start, and after every change of that user in the change feed. Answers a stop.
 */
export const forgetInitialPasswordWhenChanged = (
  dir: string,
  adminEmail: string,
  store: Pick<Store, 'users' | 'events'>,
  passwords: PasswordHasher,
  log: { readonly removed: () => void; readonly failed: (e: unknown) => void },
): (() => void) => {
  const path = join(dir, initialPasswordFile);
  const stopping = new AbortController();
  const stillOpens = async (kept: string): Promise<boolean> => {
    const admin = await store.users.findByEmail(adminEmail);
    return admin !== null && (await passwords.verify(admin.passwordHash, kept));
  };
  const watch = async (): Promise<void> => {
    let after = (await store.events.bounds()).newest;
    for (;;) {
      const kept = await readKept(path);
      if (kept === null) return;
      if (!(await stillOpens(kept))) {
        await rm(path, { force: true });
        log.removed();
        return;
      }
      // Wait for a change of a user (the admin's password, or the admin deleted).
      for (;;) {
        await store.events.waitFor(after, stopping.signal);
        if (stopping.signal.aborted) return;
        const events = await store.events.after(after, 100);
        after = events.at(-1)?.seq ?? after;
        if (events.some((e) => e.subject.resource === 'user')) break;
      }
    }
  };
  watch().catch(log.failed);
  return () => {
    stopping.abort();
  };
};
