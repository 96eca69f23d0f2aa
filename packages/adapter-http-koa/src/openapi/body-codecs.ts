import type { FieldError } from '@support/domain';
import {
  GroupCreateBody,
  GroupPatchBody,
  GroupReplaceBody,
  MessageCreateBody,
  MessagePatchBody,
  MessageReplaceBody,
  TicketCreateBody,
  TicketFieldCreateBody,
  TicketFieldPatchBody,
  TicketPatchBody,
  TicketReplaceBody,
  UserCreateBody,
  UserPatchBody,
  UserReplaceBody,
  WebhookCreateBody,
  WebhookPatchBody,
  WebhookReplayBody,
  PersonalTokenCreateBody,
} from '../decode/bodies.js';
import { decodeBody, type BodyCodec } from '../decode/object-codec.js';
import * as E from 'fp-ts/lib/Either.js';
import type { Json } from './json.js';
import { wireField, type WireName } from '../wire-names.js';

// The request bodies are described twice by nature: once as the io-ts codecs that decode
// them, once as the document's JSON Schemas. This module is where the document meets the
// codecs, and the only place it imports them from (so when they move, one import changes):
//   - at compile time, each body schema's properties are typed by its codec's decoded type
//     (BodyProperties), so a field added to or dropped from a codec fails the build until
//     the document names it;
//   - at test time, requestBodyCodecs pairs every body schema with the codecs it describes,
//     and packages/server/test/http/openapi-bodies.test.ts probes both with the same bodies
//     (required and optional fields, types, enums, bounds, null in merge patches, read-only
//     and unknown fields) and fails on any body one accepts and the other refuses.

export { limits } from '@support/domain';
export type {
  GroupCreateInput,
  GroupPatchInput,
  MessageCreateInput,
  MessagePatchInput,
  PersonalTokenCreateInput,
  TicketCreateInput,
  TicketFieldCreateInput,
  TicketFieldPatchInput,
  TicketPatchInput,
  TicketReplaceInput,
  UserCreateInput,
  UserPatchInput,
  UserReplaceInput,
  WebhookCreateInput,
  WebhookPatchInput,
  WebhookReplayInput,
} from '@support/domain';

/** The properties of a body schema: one per field its codec decodes (by the API's names, table T), no more, no fewer. */
export type BodyProperties<Input, T extends Readonly<Record<string, string>> | undefined = undefined> = {
  readonly [K in keyof Input as WireName<K, T>]-?: Json;
};

/** A body codec as the document's checks see it: the field errors it answers for a body (none: accepted). */
export type BodyErrors = (body: unknown) => readonly FieldError[];

export interface RequestBodyCodec {
  /** The component schema of the document that describes the body. */
  readonly schema: string;
  /** The component schema of the resource written: its readOnly fields are those the codec refuses as read-only. */
  readonly resource: string;
  /** The codec's name in the code, for messages. */
  readonly codec: string;
  readonly errorsOf: BodyErrors;
}

const errorsOf =
  <A>(codec: BodyCodec<A>): BodyErrors =>
  (body) => {
    const decoded = decodeBody(codec, body);
    return E.isLeft(decoded) ? decoded.left.errors.map((f) => ({ ...f, field: wireField(codec.names, f) })) : [];
  };

/** Every request body the document describes with a schema, with the codecs the HTTP edge decodes it with. */
export const requestBodyCodecs: readonly RequestBodyCodec[] = [
  { schema: 'TicketCreate', resource: 'Ticket', codec: 'TicketCreateBody', errorsOf: errorsOf(TicketCreateBody) },
  { schema: 'TicketReplace', resource: 'Ticket', codec: 'TicketReplaceBody', errorsOf: errorsOf(TicketReplaceBody) },
  { schema: 'TicketPatch', resource: 'Ticket', codec: 'TicketPatchBody', errorsOf: errorsOf(TicketPatchBody) },
  {
    schema: 'TicketFieldCreate',
    resource: 'TicketField',
    codec: 'TicketFieldCreateBody',
    errorsOf: errorsOf(TicketFieldCreateBody),
  },
  {
    schema: 'TicketFieldPatch',
    resource: 'TicketField',
    codec: 'TicketFieldPatchBody',
    errorsOf: errorsOf(TicketFieldPatchBody),
  },
  { schema: 'MessageCreate', resource: 'Message', codec: 'MessageCreateBody', errorsOf: errorsOf(MessageCreateBody) },
  { schema: 'MessageWrite', resource: 'Message', codec: 'MessageReplaceBody', errorsOf: errorsOf(MessageReplaceBody) },
  { schema: 'MessagePatch', resource: 'Message', codec: 'MessagePatchBody', errorsOf: errorsOf(MessagePatchBody) },
  { schema: 'UserCreate', resource: 'User', codec: 'UserCreateBody', errorsOf: errorsOf(UserCreateBody) },
  { schema: 'UserReplace', resource: 'User', codec: 'UserReplaceBody', errorsOf: errorsOf(UserReplaceBody) },
  { schema: 'UserPatch', resource: 'User', codec: 'UserPatchBody', errorsOf: errorsOf(UserPatchBody) },
  { schema: 'GroupWrite', resource: 'Group', codec: 'GroupCreateBody', errorsOf: errorsOf(GroupCreateBody) },
  { schema: 'GroupWrite', resource: 'Group', codec: 'GroupReplaceBody', errorsOf: errorsOf(GroupReplaceBody) },
  { schema: 'GroupPatch', resource: 'Group', codec: 'GroupPatchBody', errorsOf: errorsOf(GroupPatchBody) },
  // The resource with its secret, so that the probes also see `secret` refused as read-only.
  {
    schema: 'WebhookCreate',
    resource: 'WebhookWithSecret',
    codec: 'WebhookCreateBody',
    errorsOf: errorsOf(WebhookCreateBody),
  },
  {
    schema: 'WebhookPatch',
    resource: 'WebhookWithSecret',
    codec: 'WebhookPatchBody',
    errorsOf: errorsOf(WebhookPatchBody),
  },
  {
    schema: 'WebhookReplay',
    resource: 'WebhookWithSecret',
    codec: 'WebhookReplayBody',
    errorsOf: errorsOf(WebhookReplayBody),
  },
  // The token with its secret, so that the probes also see `token` refused as read-only.
  {
    schema: 'PersonalTokenCreate',
    resource: 'PersonalTokenCreated',
    codec: 'PersonalTokenCreateBody',
    errorsOf: errorsOf(PersonalTokenCreateBody),
  },
];
