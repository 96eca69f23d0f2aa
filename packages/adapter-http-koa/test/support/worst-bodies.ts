import { validationFailed } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import * as bodies from '../../src/decode/bodies.js';
import { decodeBody, type BodyCodec } from '../../src/decode/object-codec.js';
import { maxBodyBytes, parseJson } from '../../src/conventions/request-body.js';
import { problemBody } from '../../src/errors/error-reply.js';
import { domainProblem, HttpProblem } from '../../src/errors/http-problem.js';

// The decoding cost budget (contract §11: no body within the 1 MiB limit holds the event loop
// for more than ~50 ms). For every operation that takes a JSON body, the worst bodies we know
// of, each just under 1 MiB: long lists in each field, lists of empty objects, long strings,
// deep nesting, many unknown keys. `decodeCost` times what the service does with one: the
// UTF-8 text, the nesting check, JSON.parse, the repeated-key scan, the codec, and the 400 or
// 422 answer rendered (pretty-printed, as by default). Shared by the budget test
// (decode/decode-budget.test.ts) and the benchmark (benchmarks/src/decode-budget.ts).

export interface BodyOperation {
  readonly name: string;
  readonly codec: BodyCodec<unknown>;
}

const op = <A>(name: string, codec: BodyCodec<A>): BodyOperation => ({ name, codec: codec as BodyCodec<unknown> });

export const bodyOperations: readonly BodyOperation[] = [
  op('POST /v1/tickets', bodies.TicketCreateBody),
  op('PUT /v1/tickets/{id}', bodies.TicketReplaceBody),
  op('PATCH /v1/tickets/{id}', bodies.TicketPatchBody),
  op('POST /v1/tickets/{id}/messages', bodies.MessageCreateBody),
  op('PUT /v1/tickets/{id}/messages/{n}', bodies.MessageReplaceBody),
  op('PATCH /v1/tickets/{id}/messages/{n}', bodies.MessagePatchBody),
  op('POST /v1/users', bodies.UserCreateBody),
  op('PUT /v1/users/{id}', bodies.UserReplaceBody),
  op('PATCH /v1/users/{id}', bodies.UserPatchBody),
  op('POST /v1/groups', bodies.GroupCreateBody),
  op('PUT /v1/groups/{id}', bodies.GroupReplaceBody),
  op('PATCH /v1/groups/{id}', bodies.GroupPatchBody),
  op('POST /v1/webhooks', bodies.WebhookCreateBody),
  op('PATCH /v1/webhooks/{id}', bodies.WebhookPatchBody),
  op('POST /v1/webhooks/{id}/replay', bodies.WebhookReplayBody),
  op('POST /v1/users/me/tokens', bodies.PersonalTokenCreateBody),
];

/** A little under the limit, for the braces around the items. */
const room = maxBodyBytes - 64;

/** `count` items of `item(i)` joined by commas, as many as fit in the room (every item ASCII). */
const fill = (item: (i: number) => string): string => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (size + next.length + 1 > room) break;
    parts.push(next);
    size += next.length + 1;
  }
  return parts.join(',');
};

/** A value in `key`: the shapes that cost the most per byte. */
const valueShapes: Readonly<Record<string, () => string>> = {
  'distinct strings': () => `[${fill((i) => `"${i.toString(36)}"`)}]`,
  'one string repeated': () => `[${fill(() => '"a"')}]`,
  'small numbers': () => `[${fill(() => '0')}]`,
  'empty objects': () => `[${fill(() => '{}')}]`,
  'empty arrays': () => `[${fill(() => '[]')}]`,
  'objects of one key': () => `[${fill(() => '{"a":0}')}]`,
  'long string': () => `"${'x'.repeat(room)}"`,
  'long string of escapes': () => `"${'\\u00e9'.repeat(Math.floor(room / 6))}"`,
  'nested 63 deep, wide': () =>
    `${'['.repeat(62)}[${fill(() => '0')
      .slice(0, room - 200)
      .replace(/,$/, '')}]${']'.repeat(62)}`,
  'nested 500,000 deep': () => `${'['.repeat(Math.floor(room / 2))}${']'.repeat(Math.floor(room / 2))}`,
};

/** Whole bodies, whatever the operation. */
const bodyShapes: Readonly<Record<string, () => string>> = {
  'unknown keys': () => `{${fill((i) => `"k${i.toString(36)}":0`)}}`,
  'unknown keys of objects': () => `{${fill((i) => `"k${i.toString(36)}":{}`)}}`,
  'objects nested 500,000 deep': () => `${'{"a":'.repeat(Math.floor(room / 6))}0${'}'.repeat(Math.floor(room / 6))}`,
  'a repeated key at the end': () => `{${fill((i) => `"k${i.toString(36)}":0`)},"k0":0}`,
  'a top-level array': () => `[${fill(() => '{}')}]`,
};

export interface WorstBody {
  readonly shape: string;
  readonly text: string;
}

const cache = new Map<string, string>();
const cached = (id: string, make: () => string): string => {
  let text = cache.get(id);
  if (text === undefined) {
    text = make();
    cache.set(id, text);
  }
  return text;
};

/**
 * The worst bodies for one operation: the whole-body shapes, and each value shape in each of
 * its fields (`everyField`, the benchmark) or in one field each, taking the fields in turn (the
 * budget test: a sixth of the bodies, every shape still met).
 */
export function* worstBodies(operation: BodyOperation, everyField = true): Generator<WorstBody> {
  for (const [shape, make] of Object.entries(bodyShapes)) yield { shape, text: cached(shape, make) };
  const keys = [...operation.codec.keys];
  const valueShapeList = Object.entries(valueShapes);
  for (const [k, key] of keys.entries())
    for (const [v, [shape, make]] of valueShapeList.entries()) {
      if (!everyField && v % keys.length !== k) continue;
      yield { shape: `${key}: ${shape}`, text: `{${JSON.stringify(key)}:${cached(shape, make)}}` };
    }
}

/** CPU time of this process so far, in ms (every thread: the main one, and GC helpers). */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export interface Cost {
  /** The answer's status: 400 or 422 (200 if the body were accepted). */
  readonly status: number;
  /** Wall-clock ms: what the event loop was held for, on this machine at its load. */
  readonly ms: number;
  /**
   * CPU ms of the process meanwhile: what the loop would be held for on an idle machine (on a
   * busy one the wall-clock time stretches with the load; this does not, or much less).
   */
  readonly cpuMs: number;
}

/** What the service does with a body's bytes before and after the use case: its answer's status, and its cost. */
export const decodeCost = (operation: BodyOperation, bytes: Buffer): Cost => {
  const started = performance.now();
  const startedCpu = cpuMs();
  let status: number;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const value = parseJson(text, 'application/json');
    const decoded = decodeBody(operation.codec, value);
    if (E.isRight(decoded)) status = 200;
    else {
      const refused = domainProblem(validationFailed(decoded.left.errors, decoded.left.omitted), operation.codec.names);
      JSON.stringify(problemBody(refused), null, 2);
      status = refused.kind.status;
    }
  } catch (e) {
    if (!(e instanceof HttpProblem)) throw e;
    JSON.stringify(problemBody(e), null, 2);
    status = e.kind.status;
  }
  return { status, ms: performance.now() - started, cpuMs: cpuMs() - startedCpu };
};
