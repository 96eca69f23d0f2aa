import { expect } from 'chai';
import { keptAnswer, replayReply } from '../src/pipeline/idempotency.js';
import { created, ok } from '../src/reply.js';

// What an Idempotency-Key keeps of a reply (its meaning, never its rendering) and the reply a
// repeat is given (rendered again for the repeat's own request).

describe('Idempotency-Key: what is kept, what is replayed', () => {
  it("keeps the real status, the reply's own headers, Last-Modified and the body as compact JSON", () => {
    const kept = keptAnswer(
      created({ id: 7, subject: 'Kept' }, 'https://x/v1/tickets/7', Date.UTC(2026, 10, 25, 12, 0, 0)),
    );
    expect(kept).to.not.equal(null);
    expect(kept?.status).to.equal(201);
    expect(kept?.headers).to.deep.equal({
      Location: 'https://x/v1/tickets/7',
      'Last-Modified': 'Wed, 25 Nov 2026 12:00:00 GMT',
    });
    expect(Buffer.from(kept?.body ?? []).toString()).to.equal('{"id":7,"subject":"Kept"}');
  });

  it('replays a kept answer as a reply to render, marked Idempotent-Replayed, with its Last-Modified', () => {
    const reply = ok(
      { id: 7 },
      { headers: { Location: 'https://x/v1/tickets/7' }, lastModified: Date.UTC(2026, 10, 25, 12, 0, 0) },
    );
    const kept = keptAnswer({ ...reply, status: 201 });
    if (kept === null) throw new Error('not kept');
    const replay = replayReply(kept);
    expect(replay.status).to.equal(201);
    expect(replay.body).to.deep.equal({ id: 7 });
    expect(replay.raw).to.equal(undefined);
    expect(replay.headers).to.deep.equal({ Location: 'https://x/v1/tickets/7', 'Idempotent-Replayed': 'true' });
    expect(replay.lastModified).to.equal(Date.UTC(2026, 10, 25, 12, 0, 0));
  });

  it('keeps an answer without a body as an empty one, replayed without a body', () => {
    const kept = keptAnswer({ status: 204, body: undefined });
    expect(kept?.body).to.have.length(0);
    expect(replayReply(kept ?? { status: 0, headers: {}, body: new Uint8Array(0) }).body).to.equal(undefined);
  });

  it('keeps nothing it could not render again (a raw or paged answer)', () => {
    expect(
      keptAnswer({ status: 200, body: undefined, raw: { contentType: 'text/html', bytes: Buffer.from('<p>') } }),
    ).to.equal(null);
    expect(keptAnswer({ status: 200, body: [], page: { page: 1, perPage: 30, total: 0 } })).to.equal(null);
  });

  it('replays a record kept in the earlier form (rendered bytes with their Content-Type) as those bytes', () => {
    const bytes = Buffer.from('{\n  "id": 7\n}\n');
    const replay = replayReply({
      status: 201,
      headers: { 'Content-Type': 'application/json; charset=utf-8', ETag: '"abc"', Location: '/v1/tickets/7' },
      body: bytes,
    });
    expect(replay.raw?.bytes.equals(bytes)).to.equal(true);
    expect(replay.raw?.etag).to.equal('"abc"');
    expect(replay.headers).to.deep.equal({ Location: '/v1/tickets/7', 'Idempotent-Replayed': 'true' });
  });
});
