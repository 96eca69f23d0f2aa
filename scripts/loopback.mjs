// Loopback helpers for the scripts that start a server for the Mongo suites
// (ferretdb-run.mjs, documentdb-run.mjs): a free port, and a wait until something listens.
import { connect, createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (the kernel's pick). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** Resolves once 127.0.0.1:port accepts a connection; throws after `ms` naming `what`. */
export const waitForPort = async (port, ms, what) => {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const c = connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`${what} did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
