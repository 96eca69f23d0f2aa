import fc from 'fast-check';
import type { Ref, UrlText } from './wire.js';

// The shapes of a generated request (requests.ts) and the small makers every part of it uses.

/** personal: one of the world's admin's personal access tokens, each with its own random scopes. */
export type Role = 'admin' | 'agent' | 'customer' | 'personal' | 'none' | 'stranger';
export type TokenVia = 'bearer' | 'basic' | 'query';

/** A path segment: literal text of the template, a fixture's id, or generated text. */
export type Segment = { readonly literal: string } | { readonly fixture: Ref } | UrlText;

/** A header value; `current ETag` is read from the target just before the request. */
export type HeaderValue = string | readonly string[] | { readonly currentEtag: true };

export type Body =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: readonly number[] }
  | { readonly kind: 'form'; readonly pairs: readonly (readonly [UrlText, UrlText | Ref])[] }
  | { readonly kind: 'huge' };

export interface BodyPlan {
  readonly body: Body;
  readonly contentType: string | null;
  readonly gzip: boolean;
  readonly bom: boolean;
}

export interface FuzzRequest {
  readonly role: Role;
  /** Which personal token (role personal), modulo how many the world has. */
  readonly personal: number;
  readonly via: TokenVia;
  readonly method: string;
  readonly segments: readonly Segment[];
  readonly suffix: string;
  readonly query: readonly (readonly [string, UrlText])[];
  readonly headers: readonly (readonly [string, HeaderValue])[];
  readonly body: BodyPlan | null;
}

export const text = (s: string): UrlText => ({ text: s });
export const encoded = (s: string): UrlText => ({ encoded: s });

export const weighted = <T>(...pairs: readonly (readonly [number, fc.Arbitrary<T>])[]): fc.Arbitrary<T> =>
  fc.oneof(...pairs.map(([weight, arbitrary]) => ({ weight, arbitrary })));
