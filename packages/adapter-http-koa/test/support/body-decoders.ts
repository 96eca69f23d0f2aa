import type { RefusedBody } from '@support/application';
import type { FieldError } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import {
  GroupCreateBody,
  GroupPatchBody,
  GroupReplaceBody,
  MessageCreateBody,
  MessagePatchBody,
  MessageReplaceBody,
  TicketCreateBody,
  TicketPatchBody,
  TicketReplaceBody,
  UserCreateBody,
  UserPatchBody,
  UserReplaceBody,
} from '../../src/decode/bodies.js';
import { decodeBody, type BodyCodec } from '../../src/decode/object-codec.js';
import { wireField } from '../../src/wire-names.js';
import { fieldCodes, leftOf, rightOf } from './decoding.js';

// The request body codecs as the decode tests use them (decode/bodies*.test.ts): each run
// through decodeBody, with the API's field names, and helpers to read what they answer.

/** A codec run through decodeBody, its decoded type forgotten, so that different bodies fit one list; errors name the API's fields. */
export type Decode = (body: unknown) => E.Either<readonly FieldError[], unknown>;
export const decoder =
  <A>(codec: BodyCodec<A>): Decode =>
  (body) =>
    E.mapLeft((r: RefusedBody) => r.errors.map((f) => ({ ...f, field: wireField(codec.names, f) })))(
      decodeBody(codec, body),
    );

export const ticketCreate = decoder(TicketCreateBody);
export const ticketReplace = decoder(TicketReplaceBody);
export const ticketPatch = decoder(TicketPatchBody);
export const messageCreate = decoder(MessageCreateBody);
export const messageReplace = decoder(MessageReplaceBody);
export const messagePatch = decoder(MessagePatchBody);
export const userCreate = decoder(UserCreateBody);
export const userReplace = decoder(UserReplaceBody);
export const userPatch = decoder(UserPatchBody);
export const groupCreate = decoder(GroupCreateBody);
export const groupReplace = decoder(GroupReplaceBody);
export const groupPatch = decoder(GroupPatchBody);

/** The [field, code] pairs of a refused body; fails the test if the body was accepted. */
export const errorsOf = (decode: Decode, body: unknown): Array<[string, string]> => fieldCodes(leftOf(decode(body)));
export const messagesOf = (decode: Decode, body: unknown): string[] => leftOf(decode(body)).map((e) => e.message);
export const decoded = (decode: Decode, body: unknown): unknown => rightOf(decode(body));

export const chars = (n: number, c = 'a'): string => c.repeat(n);
export const emoji = (n: number): string => '😀'.repeat(n);
export const tagList = (n: number): string[] => Array.from({ length: n }, (_, i) => `tag${i}`);

export const allBodies: ReadonlyArray<[string, Decode]> = [
  ['TicketCreateBody', ticketCreate],
  ['TicketReplaceBody', ticketReplace],
  ['TicketPatchBody', ticketPatch],
  ['MessageCreateBody', messageCreate],
  ['MessageReplaceBody', messageReplace],
  ['MessagePatchBody', messagePatch],
  ['UserCreateBody', userCreate],
  ['UserReplaceBody', userReplace],
  ['UserPatchBody', userPatch],
  ['GroupCreateBody', groupCreate],
  ['GroupReplaceBody', groupReplace],
  ['GroupPatchBody', groupPatch],
];
