import { type Customer, type FieldError, type GroupId, type UserId } from '@support/domain';
import type { Ports } from '../ports/index.js';
/** Checks that a named customer exists; returns it with its name (tickets keep a copy). */
export declare const resolveCustomer: (ports: Pick<Ports, "users">, id: UserId) => Promise<{
    customer: Customer | null;
    errors: FieldError[];
}>;
/** An assignee must be an agent or an admin. */
export declare const checkAssignee: (ports: Pick<Ports, "users">, id: UserId | null | undefined) => Promise<FieldError[]>;
export declare const checkGroup: (ports: Pick<Ports, "groups">, id: GroupId | null | undefined) => Promise<FieldError[]>;
//# sourceMappingURL=references.d.ts.map