import type { EventActor, TicketFieldDefinition, TicketFieldId } from '@support/domain';

/**
 * The custom field definitions (contract §10). At most `limit` exist at once; keys are unique
 * among them. Definitions are few (at most 100) and read on every ticket request: `list`
 * answers the stored objects, which nobody changes (a write replaces a definition).
 * Every write records its `ticket_field.*` event in the same step.
 */
export interface TicketFieldRepository {
  /** Every definition, by position then id. */
  list(): Promise<readonly TicketFieldDefinition[]>;
  findById(id: TicketFieldId): Promise<TicketFieldDefinition | null>;
  /** 'key_taken' when a definition has the key, 'too_many' when `limit` exist already. */
  insert(field: TicketFieldDefinition, limit: number, by?: EventActor): Promise<'ok' | 'key_taken' | 'too_many'>;
  update(field: TicketFieldDefinition, expectedVersion: number, by?: EventActor): Promise<boolean>;
  /**
   * Removes the definition: its values leave every ticket's representation at once, while the
   * tickets themselves (their updated_at, version, the feed) are untouched. False when there was none.
   */
  delete(id: TicketFieldId, now: number, by?: EventActor): Promise<boolean>;
}
