import { expect } from 'chai';
import fc from 'fast-check';
import { afterStep } from './check.js';
import {
  emailTaken,
  firstAdminId,
  groupNameTaken,
  groupPath,
  pick,
  removeGroup,
  renameCustomer,
  unassign,
  userPath,
  type Change,
  type Role,
} from './model.js';
import { command, emails, expectStatus, groupNames, names, phrase, send, users } from './command-kit.js';

// The steps on users and groups (see commands.ts).

export const createUser = fc
  .record({
    role: fc.constantFrom<Role>('customer', 'customer', 'agent', 'admin'),
    name: fc.constantFrom(...names),
    email: fc.constantFrom(...emails),
    groups: fc.array(fc.nat(), { maxLength: 2 }),
  })
  .map((c) =>
    command(
      `createUser(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const groupIds = [
          ...new Set(c.groups.map((n) => pick([...m.groups.keys()], n)).filter((g): g is number => g !== undefined)),
        ];
        const a = await send(r, 'POST', '/v1/users', r.admin, {
          name: c.name,
          email: c.email,
          role: c.role,
          password: 'password-1',
          group_ids: groupIds,
        });
        if (emailTaken(m, c.email)) {
          expectStatus(a, 422, 'a user with a taken e-mail');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST /v1/users');
        const id = (a.json as { id: number }).id;
        expect(m.users.has(id), 'a new user id').to.equal(false);
        const token = c.role === 'customer' ? await r.api.login(c.email, 'password-1') : null;
        m.users.set(id, { id, name: c.name, email: c.email, role: c.role, groups: groupIds, token });
        return afterStep(m, r, [{ type: 'user.created', path: userPath(id) }]);
      },
    ),
  );

export const patchUser = fc
  .record({
    who: fc.nat(),
    name: fc.option(fc.constantFrom(...names)),
    role: fc.option(fc.constantFrom<Role>('customer', 'agent', 'admin')),
    groups: fc.option(fc.array(fc.nat(), { maxLength: 2 })),
  })
  .map((c) =>
    command(
      `patchUser(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const u = pick(users(m), c.who)!;
        const groupIds =
          c.groups === null
            ? null
            : [
                ...new Set(
                  c.groups.map((n) => pick([...m.groups.keys()], n)).filter((g): g is number => g !== undefined),
                ),
              ];
        const body = {
          ...(c.name === null ? {} : { name: c.name }),
          ...(c.role === null ? {} : { role: c.role }),
          ...(groupIds === null ? {} : { group_ids: groupIds }),
        };
        const a = await send(r, 'PATCH', userPath(u.id), r.admin, body);
        if (u.id === firstAdminId && c.role !== null && c.role !== u.role) {
          expectStatus(a, 422, 'an admin changing its own role');
          return afterStep(m, r, []);
        }
        expectStatus(a, 200, `PATCH ${userPath(u.id)}`);
        const before = { ...u, groups: [...u.groups] };
        if (c.name !== null) u.name = c.name;
        if (c.role !== null) u.role = c.role;
        if (groupIds !== null) u.groups = groupIds;
        // Group ids are a list, as tags are: another order is a change.
        const same =
          before.name === u.name &&
          before.role === u.role &&
          JSON.stringify(before.groups) === JSON.stringify(u.groups);
        if (same) return afterStep(m, r, []);
        const changes: Change[] = [{ type: 'user.updated', path: userPath(u.id) }, ...renameCustomer(m, u.id, u.name)];
        if (u.role === 'customer' && before.role !== 'customer') changes.push(...unassign(m, u.id));
        return afterStep(m, r, changes);
      },
    ),
  );

export const deleteUser = fc.nat().map((n) =>
  command(
    `deleteUser(${n})`,
    () => true,
    async (m, r) => {
      const u = pick(users(m), n)!;
      const a = await send(r, 'DELETE', userPath(u.id), r.admin);
      if (u.id === firstAdminId) {
        expectStatus(a, 409, 'an admin deleting itself');
        return afterStep(m, r, []);
      }
      expectStatus(a, 200, `DELETE ${userPath(u.id)}`);
      m.users.delete(u.id);
      return afterStep(m, r, [{ type: 'user.deleted', path: userPath(u.id) }, ...unassign(m, u.id)]);
    },
  ),
);

export const createGroup = fc
  .record({ name: fc.constantFrom(...groupNames), description: fc.option(phrase) })
  .map((c) =>
    command(
      `createGroup(${JSON.stringify(c)})`,
      () => true,
      async (m, r) => {
        const a = await send(r, 'POST', '/v1/groups', r.admin, {
          name: c.name,
          ...(c.description === null ? {} : { description: c.description }),
        });
        if (groupNameTaken(m, c.name)) {
          expectStatus(a, 422, 'a group with a taken name');
          return afterStep(m, r, []);
        }
        expectStatus(a, 201, 'POST /v1/groups');
        const id = (a.json as { id: number }).id;
        m.groups.set(id, { id, name: c.name, description: c.description ?? '' });
        return afterStep(m, r, [{ type: 'group.created', path: groupPath(id) }]);
      },
    ),
  );

export const patchGroup = fc
  .record({ which: fc.nat(), name: fc.option(fc.constantFrom(...groupNames)), description: fc.option(phrase) })
  .map((c) =>
    command(
      `patchGroup(${JSON.stringify(c)})`,
      (m) => m.groups.size > 0,
      async (m, r) => {
        const g = pick([...m.groups.values()], c.which)!;
        const a = await send(r, 'PATCH', groupPath(g.id), r.admin, {
          ...(c.name === null ? {} : { name: c.name }),
          ...(c.description === null ? {} : { description: c.description }),
        });
        if (c.name !== null && groupNameTaken(m, c.name, g.id)) {
          expectStatus(a, 422, 'renaming a group to a taken name');
          return afterStep(m, r, []);
        }
        expectStatus(a, 200, `PATCH ${groupPath(g.id)}`);
        const same = (c.name ?? g.name) === g.name && (c.description ?? g.description) === g.description;
        g.name = c.name ?? g.name;
        g.description = c.description ?? g.description;
        return afterStep(m, r, same ? [] : [{ type: 'group.updated', path: groupPath(g.id) }]);
      },
    ),
  );

export const deleteGroup = fc.nat().map((n) =>
  command(
    `deleteGroup(${n})`,
    (m) => m.groups.size > 0,
    async (m, r) => {
      const g = pick([...m.groups.values()], n)!;
      expectStatus(await send(r, 'DELETE', groupPath(g.id), r.admin), 200, `DELETE ${groupPath(g.id)}`);
      m.groups.delete(g.id);
      return afterStep(m, r, [{ type: 'group.deleted', path: groupPath(g.id) }, ...removeGroup(m, g.id)]);
    },
  ),
);

export const groupUsers = fc.nat().map((n) =>
  command(
    `groupUsers(${n})`,
    (m) => m.groups.size > 0,
    async (m, r) => {
      const g = pick([...m.groups.values()], n)!;
      const a = await r.api.get(`${groupPath(g.id)}/users?per_page=100`, { token: r.admin });
      expectStatus(a, 200, 'GET group users');
      const want = users(m)
        .filter((u) => u.groups.includes(g.id))
        .map((u) => u.id)
        .sort((x, y) => x - y);
      expect(
        (a.json as { id: number }[]).map((u) => u.id),
        `the members of group ${g.id}`,
      ).to.deep.equal(want);
      expect(a.header('x-total-count')).to.equal(String(want.length));
      return afterStep(m, r, []);
    },
  ),
);
