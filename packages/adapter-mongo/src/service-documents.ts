import type { EventActor, EventData, EventSubject, EventType, Scope } from '@support/domain';
import type { Binary } from 'mongodb';

// How the service's own records (idempotency keys, webhooks and their deliveries, the
// change feed) are laid out in MongoDB; the domain's records are in documents.ts.

/** One idempotency key of one caller: the claim, then the kept answer. */
export interface IdempotencyDocument {
  /** JSON of [scope, key]: the unique _id makes a first claim atomic across processes. */
  _id: string;
  owner: string;
  fingerprint: string;
  leaseUntil: Date;
  /** The TTL index forgets the record after it (within a minute or so; claims also check it). */
  expiresAt: Date;
  answer: { status: number; headers: Record<string, string>; body: Binary } | null;
  /**
   * Set before the claim's request runs (IdempotencyStore.guard; no transaction here spans the
   * claim and the request's writes): the record is then never taken over, only answered
   * `answer_lost` past its lease. Absent in records written before 2026-11-28.
   */
  written?: boolean;
}

/** A webhook; the delivery lease rides along in the same document. */
export interface WebhookDocument {
  _id: number;
  url: string;
  events: (EventType | '*')[];
  description: string;
  active: boolean;
  secret: string;
  /** The secret before the last rotation and until when it still signs (absent on older documents). */
  previousSecret?: { secret: string; until: Date } | null;
  lastDeliveredSeq: number;
  failedAttempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

export interface DeliveryDocument {
  webhookId: number;
  seq: number;
  deliveryId: string;
  attempt: number;
  attemptedAt: Date;
  status: number | null;
  durationMs: number;
  error: string | null;
  response: string;
  nextAttemptAt: Date | null;
}

/** One change of the feed; `_id` is its seq. Records inside `data` keep the domain's epoch-ms numbers. */
export interface EventDocument {
  _id: number;
  type: EventType;
  subject: EventSubject;
  /** Who made the change (contract §8.3); absent on events appended before actors were kept: the service's own. */
  actor?: EventActor;
  occurredAt: Date;
  data: EventData | null;
}

/** A personal access token; `_id` is its id, `hash` its SHA-256 (unique index: one lookup per request). */
export interface PersonalTokenDocument {
  _id: number;
  userId: number;
  name: string;
  scopes: Scope[];
  hash: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
}
