import type { StoredEvent, TicketFieldDefinition } from '@support/domain';

/** What one delivery attempt came to; a failure is a result, never a throw. */
export interface SendResult {
  /** The receiver's status; null when it did not answer (refused, reset, timed out, blocked). */
  readonly status: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  /** The start of the receiver's answer, at most 1 KiB. */
  readonly response: string;
}

/** Outbound webhooks: POSTs one event, signed with each of the webhook's secrets (Standard Webhooks: one signature each, space-separated). */
export interface WebhookSender {
  /**
   * Why a receiver URL may not be called (the SSRF guard: scheme, and every address its host
   * resolves to must be public unless private receivers are allowed), or null when it may.
   */
  refuses(url: string): Promise<string | null>;
  send(
    target: { readonly url: string; readonly secrets: readonly string[] },
    deliveryId: string,
    event: StoredEvent,
    timestamp: number,
    /** The custom field definitions now: a ticket's `custom_fields` in the body is keyed by their keys. */
    fields: readonly TicketFieldDefinition[],
  ): Promise<SendResult>;
}
