/** The collections this adapter owns, one per kind of record. */
export const collectionNames = {
  tickets: 'tickets',
  ticketFields: 'ticket_fields',
  messages: 'messages',
  attachments: 'attachments',
  /** GridFS (bucket `blobs`): the files' bytes, in chunks. */
  blobFiles: 'blobs.files',
  blobChunks: 'blobs.chunks',
  users: 'users',
  groups: 'groups',
  tokens: 'tokens',
  personalTokens: 'personal_tokens',
  rateLimits: 'rate_limits',
  idempotency: 'idempotency_keys',
  webhooks: 'webhooks',
  events: 'events',
  deliveries: 'webhook_deliveries',
  counters: 'counters',
  repairs: 'repairs',
} as const;

export type CollectionKey = keyof typeof collectionNames;
