import type { Store } from '../../src/index.js';
import { naiveState } from './naive-state.js';
import { contentPorts } from './naive-content-ports.js';
import { accessPorts } from './naive-access-ports.js';
import { feedPorts } from './naive-feed-ports.js';
import { filePorts } from './naive-file-ports.js';

// The simplest store that keeps the ports' promises: arrays, full scans and the domain's
// reference filter and order. Use-case tests run on it; it is no adapter, so the
// application never depends on one.

export const naiveStore = (): Store & { failing: boolean } => {
  const s = naiveState();
  const store: Store & { failing: boolean } = {
    failing: false,
    ...contentPorts(s),
    ...accessPorts(s),
    ...feedPorts(s),
    ...filePorts(s),
    health: { ping: (): Promise<boolean> => Promise.resolve(!store.failing) },
  };
  return store;
};
