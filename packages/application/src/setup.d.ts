import type { Email } from '@support/domain';
import type { Ports } from './ports/index.js';
/** Creates the first admin when the store holds no user yet. True when it did. */
export declare const ensureFirstAdmin: (ports: Ports, email: Email, password: string, beforeCreate?: () => Promise<void>) => Promise<boolean>;
//# sourceMappingURL=setup.d.ts.map