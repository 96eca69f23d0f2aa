import { expect } from 'chai';
import type { Person } from './casts.js';
import { startApi, type Answer, type Api } from './harness.js';
import { obj, type Json } from './resources.js';

// What the users and groups suites (http/users-groups*.test.ts) start with and check.

export interface UsersCast {
  api: Api;
  admin: string;
  agent: Person;
  createUser: (body: Json) => Promise<Answer>;
  createGroup: (name: string, description?: string) => Promise<Json>;
}

/** An API with an admin and an agent, and helpers that create users and groups as the admin. */
export const usersCast = async (): Promise<UsersCast> => {
  const api = await startApi();
  const admin = await api.adminToken();
  const agent = await api.userWithToken('agent', 'Agnes Agent');
  const createUser = async (body: Json): Promise<Answer> => api.post('/v1/users', body, { token: admin });
  const createGroup = async (name: string, description?: string): Promise<Json> => {
    const a = await api.post('/v1/groups', description === undefined ? { name } : { name, description }, {
      token: admin,
    });
    expect(a.status, a.text).to.equal(201);
    return obj(a);
  };
  return { api, admin, agent, createUser, createGroup };
};

export const noPassword = (a: Answer): void => {
  expect(a.text).not.to.match(/password/i);
  expect(a.text).not.to.include('s3cret-pass');
};
