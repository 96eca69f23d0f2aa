import type { Json } from './json.js';

// Sample bodies of the document, on the document's own origin. The document test checks
// every one of them against its schema, so they cannot drift from the schemas.

export const examples = (origin: string) => {
  const v1 = `${origin}/v1`;
  const userLink = (id: number): Json => ({ id, url: `${v1}/users/${id}` });
  const groupLink = (id: number): Json => ({ id, url: `${v1}/groups/${id}` });
  const ticket = (extra: Json = {}): Json => ({
    id: 7,
    url: `${v1}/tickets/7`,
    subject: 'Printer on fire',
    summary: 'Smoke is coming out of the paper tray.',
    state: 'open',
    priority: 'urgent',
    customer: userLink(12),
    customer_name: 'Ada Lovelace',
    assigned_user: userLink(3),
    group: groupLink(2),
    tags: ['hardware', 'printer'],
    created_at: '2026-01-06T09:00:00.000Z',
    updated_at: '2026-01-06T09:15:42.123Z',
    closed_at: null,
    messages_url: `${v1}/tickets/7/messages`,
    allowed_transitions: ['pending', 'closed'],
    ...extra,
  });
  const message = (extra: Json = {}): Json => ({
    id: 1,
    url: `${v1}/tickets/7/messages/1`,
    body: 'Have you tried unplugging it?',
    author: userLink(3),
    internal: false,
    ticket: { id: 7, url: `${v1}/tickets/7` },
    created_at: '2026-01-06T09:15:42.123Z',
    updated_at: '2026-01-06T09:15:42.123Z',
    ...extra,
  });
  const user = (extra: Json = {}): Json => ({
    id: 12,
    url: `${v1}/users/12`,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'customer',
    groups: [],
    created_at: '2026-01-05T08:00:00.000Z',
    updated_at: '2026-01-05T08:00:00.000Z',
    ...extra,
  });
  const group = (extra: Json = {}): Json => ({
    id: 2,
    url: `${v1}/groups/2`,
    name: 'Hardware',
    description: 'Printers, screens and everything that smokes',
    users_url: `${v1}/groups/2/users`,
    created_at: '2026-01-05T08:00:00.000Z',
    updated_at: '2026-01-05T08:00:00.000Z',
    ...extra,
  });
  const webhook = (extra: Json = {}): Json => ({
    id: 3,
    url: 'https://crm.example.com/hooks/support',
    events: ['ticket.created', 'ticket.updated'],
    description: 'CRM sync',
    active: true,
    last_delivered_seq: 1041,
    created_at: '2026-01-05T08:00:00.000Z',
    updated_at: '2026-01-06T09:15:42.456Z',
    ...extra,
  });
  const personalTokenExample = {
    id: 5,
    url: `${v1}/users/12/tokens/5`,
    name: 'CRM sync',
    scopes: ['tickets:read', 'events:read'],
    created_at: '2026-01-02T09:00:00.000Z',
    expires_at: '2026-04-01T00:00:00.000Z',
    last_used_at: '2026-01-06T09:15:00.000Z',
  };
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw0r7pNLEOVDU=';
  return {
    event: {
      seq: 1042,
      type: 'ticket.updated',
      occurred_at: '2026-01-06T09:15:42.123Z',
      resource: { type: 'ticket', id: 7, url: `${v1}/tickets/7` },
      actor: { type: 'user', id: 3, url: `${v1}/users/3`, token: { id: 5, name: 'CRM sync' } },
      data: ticket(),
    },
    eventDeleted: {
      seq: 1043,
      type: 'message.deleted',
      occurred_at: '2026-01-06T09:16:00.000Z',
      resource: { type: 'message', id: 1, url: `${v1}/tickets/7/messages/1` },
      actor: { type: 'user', id: 12, url: `${v1}/users/12` },
      data: null,
    },
    webhook,
    webhookWithSecret: (extra: Json = {}): Json => ({ ...webhook(extra), secret }),
    webhookCreate: {
      url: 'https://crm.example.com/hooks/support',
      events: ['ticket.created', 'ticket.updated'],
      description: 'CRM sync',
    },
    webhookPatch: { events: ['*'], description: null },
    webhookReplay: { after: 1000 },
    delivery: {
      seq: 1042,
      webhook_id: 'msg_3_1042',
      attempt: 2,
      attempted_at: '2026-01-06T09:15:47.200Z',
      status: 503,
      duration_ms: 41,
      error: 'the receiver answered 503',
      response: '{"error":"maintenance"}',
      next_attempt_at: '2026-01-06T09:16:17.241Z',
    },
    ticket,
    ticketSelection: { id: 7, subject: 'Printer on fire', customer_name: 'Ada Lovelace' },
    ticketEmbedded: ticket({ customer: { id: 12, url: `${v1}/users/12`, name: 'Ada Lovelace' } }),
    ticketCreate: {
      subject: 'Printer on fire',
      summary: 'Smoke is coming out of the paper tray.',
      priority: 'urgent',
      customer_id: 12,
      tags: ['hardware', 'printer'],
    },
    ticketReplace: {
      subject: 'Printer on fire',
      summary: 'Smoke is coming out of the paper tray.',
      state: 'pending',
      priority: 'high',
      assigned_user_id: 3,
      group_id: 2,
      tags: ['hardware'],
    },
    ticketPatch: { state: 'closed', assigned_user_id: null },
    message,
    messageCreate: { body: 'Have you tried unplugging it?', internal: false },
    messagePatch: { internal: true },
    user,
    userCreate: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'correct horse battery staple',
      role: 'customer',
    },
    userReplace: { name: 'Ada King', email: 'ada@example.com', role: 'customer', group_ids: [] },
    userPatch: { name: 'Ada King' },
    group,
    groupCreate: { name: 'Hardware', description: 'Printers, screens and everything that smokes' },
    groupPatch: { description: null },
    tokenPassword: { grant_type: 'password', username: 'ada@example.com', password: 'correct horse battery staple' },
    tokenRefresh: { grant_type: 'refresh_token', refresh_token: 'sB1d2kWvL7v8G3kq0oYQd0d5m0n6m8H0j3Q1q2Vt3aU' },
    tokenResponse: {
      access_token: 'y3yQe8p5Jd2Qm2m8f7Hj9q0Z1r2s3t4u5v6w7x8y9zA',
      token_type: 'bearer',
      expires_in: 86400,
      refresh_token: 'sB1d2kWvL7v8G3kq0oYQd0d5m0n6m8H0j3Q1q2Vt3aU',
      scope: 'tickets:read tickets:write users:read users:write',
    },
    tokenPasswordScoped: {
      grant_type: 'password',
      username: 'ada@example.com',
      password: 'correct horse battery staple',
      scope: 'tickets:read',
    },
    tokenFailure: {
      error: 'invalid_grant',
      error_description: 'the e-mail address or the password is wrong',
      code: 40011,
      message: 'Invalid grant',
      description: 'the e-mail address or the password is wrong',
    },
    revoke: { token: 'y3yQe8p5Jd2Qm2m8f7Hj9q0Z1r2s3t4u5v6w7x8y9zA' },
    personalTokenCreate: {
      name: 'CRM sync',
      scopes: ['tickets:read', 'events:read'],
      expires_at: '2026-04-01T00:00:00Z',
    },
    personalToken: personalTokenExample,
    personalTokenCreated: { ...personalTokenExample, token: 'stp_Zq3R7mKp2XvB9tL4sW8nY1cD6fH0jG5aE3uI7oP24b2I4Q' },
  };
};

export type Examples = ReturnType<typeof examples>;
