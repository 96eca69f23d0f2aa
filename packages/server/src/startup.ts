// The start-up steps /readyz waits for (contract §1: ready only when every start-up step is
// done). Any step joins by name before the server listens and says when it is done: today the
// store's preparation (Mongo: topology, indexes, unfinished bulk writes) and the first admin
// (whose argon2id hash is computed after listen). /healthz does not wait for them.

export interface StartupSteps {
  /** Registers a step; call the answer once it is done (again: no effect). */
  begin(name: string): () => void;
  /** The names of the steps not done yet, in the order they began; empty once ready. */
  pending(): readonly string[];
}

export const startupSteps = (): StartupSteps => {
  const open: string[] = [];
  return {
    begin: (name) => {
      open.push(name);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        open.splice(open.indexOf(name), 1);
      };
    },
    pending: () => open,
  };
};
