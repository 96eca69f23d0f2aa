import { fieldError, isStaff, type Customer, type FieldError, type GroupId, type UserId } from '@support/domain';
import type { Ports } from '../ports/index.js';

/** Checks that a named customer exists; returns it with its name (tickets keep a copy). */
export const resolveCustomer = async (
  ports: Pick<Ports, 'users'>,
  id: UserId,
): Promise<{ customer: Customer | null; errors: FieldError[] }> => {
  const u = await ports.users.findById(id);
  return u === null
    ? { customer: null, errors: [fieldError('customerId', 'unknown_reference', `there is no user ${id}`)] }
    : { customer: { id: u.id, name: u.name }, errors: [] };
};

/** An assignee must be an agent or an admin. */
export const checkAssignee = async (
  ports: Pick<Ports, 'users'>,
  id: UserId | null | undefined,
): Promise<FieldError[]> => {
  if (id === null || id === undefined) return [];
  const u = await ports.users.findById(id);
  if (u === null) return [fieldError('assignedUserId', 'unknown_reference', `there is no user ${id}`)];
  return isStaff(u.role)
    ? []
    : [
        fieldError(
          'assignedUserId',
          'unknown_reference',
          `user ${id} is a customer; tickets are assigned to agents or admins`,
        ),
      ];
};

export const checkGroup = async (
  ports: Pick<Ports, 'groups'>,
  id: GroupId | null | undefined,
): Promise<FieldError[]> => {
  if (id === null || id === undefined) return [];
  return (await ports.groups.findById(id)) === null
    ? [fieldError('groupId', 'unknown_reference', `there is no group ${id}`)]
    : [];
};
