import { fieldError, validationFailed, type Attachment, type AttachmentId, type TicketId } from '@support/domain';
import { expect } from 'chai';
import type { Actor, UploadInput } from '../src/index.js';
import { decoded, leftOf, page, rightOf, world, type World } from './support/world.js';

// Which uploads a new message may take (contract §9), refusal by refusal with its exact words,
// every refused id at once and nothing written; and when the sweep erases bytes.

const chunks = async function* (bytes: Buffer): AsyncIterable<Uint8Array> {
  yield await Promise.resolve(bytes);
};
const file = (text: string): UploadInput => ({
  filename: 'notes.txt',
  declaredType: 'text/plain',
  source: chunks(Buffer.from(text)),
  detectedType: () => Promise.resolve(null),
});
const upload = async (w: World, who: Actor, text: string): Promise<Attachment> =>
  rightOf(await rightOf(await w.app.attachments.upload(who, file(text))).keep());
const blobs = (w: World) => (w.ports.blobs as unknown as { bytes: Map<string, Buffer> }).bytes;
const TTL_MS = 3600 * 1000;

const notYours = 'is not an upload of yours (upload the file first: POST /v1/uploads)';
const refusedAt = (index: number, id: AttachmentId, why: string) =>
  fieldError(`attachmentIds.${String(index)}`, 'invalid_value', `upload ${String(id)} ${why}`);

const messagesOn = async (w: World, ticket: TicketId) =>
  rightOf(await w.app.messages.list(w.admin, ticket, page())).items;

const post = (w: World, who: Actor, ticket: TicketId, ids: readonly AttachmentId[]) =>
  w.app.messages.create(who, ticket, decoded({ body: 'see files', attachmentIds: ids }));

describe('use case: which uploads a new message takes (contract §9)', () => {
  const setup = async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const bob = await w.customer('Bob');
    const agent = await w.agent();
    const ticket = await w.ticket(ada);
    return { w, ada, bob, agent, ticket };
  };

  it('takes the own, unattached, unexpired uploads in the order given', async () => {
    const { w, ada, ticket } = await setup();
    const a = await upload(w, ada, 'first');
    const b = await upload(w, ada, 'second');
    const message = rightOf(await post(w, ada, ticket, [b.id, a.id]));
    expect(message.attachments.map((x) => x.id)).to.deep.equal([b.id, a.id]);
  });

  it("refuses another user's upload and a missing one in the same words", async () => {
    const { w, ada, bob, ticket } = await setup();
    const bobs = await upload(w, bob, 'bob bytes');
    const before = await messagesOn(w, ticket);
    const missing = 999 as AttachmentId;
    expect(leftOf(await post(w, ada, ticket, [bobs.id, missing]))).to.deep.equal(
      validationFailed([refusedAt(0, bobs.id, notYours), refusedAt(1, missing, notYours)]),
    );
    expect(await messagesOn(w, ticket)).to.deep.equal(before);
  });

  it('refuses a deleted upload as not yours', async () => {
    const { w, agent, ticket } = await setup();
    const gone = await upload(w, agent, 'gone bytes');
    rightOf(await w.app.attachments.delete(agent, gone.id));
    expect(leftOf(await post(w, agent, ticket, [gone.id]))).to.deep.equal(
      validationFailed([refusedAt(0, gone.id, notYours)]),
    );
  });

  it('refuses an upload already attached, and an expired one, naming each by its index', async () => {
    const { w, ada, ticket } = await setup();
    const used = await upload(w, ada, 'used');
    rightOf(await post(w, ada, ticket, [used.id]));
    const good = await upload(w, ada, 'good');
    const before = await messagesOn(w, ticket);
    expect(leftOf(await post(w, ada, ticket, [good.id, used.id]))).to.deep.equal(
      validationFailed([refusedAt(1, used.id, 'is already attached to a message')]),
    );
    expect(await messagesOn(w, ticket)).to.deep.equal(before);
    w.clock.advance(TTL_MS);
    const late = 'has expired (uploads not attached in time are deleted): upload it again';
    expect(leftOf(await post(w, ada, ticket, [used.id, good.id]))).to.deep.equal(
      validationFailed([refusedAt(0, used.id, 'is already attached to a message'), refusedAt(1, good.id, late)]),
    );
    expect(await messagesOn(w, ticket)).to.deep.equal(before);
  });
});

describe('use case: the sweep erases bytes no record names (contract §9)', () => {
  it('erases bytes kept with no record (a crash before the commit), and counts them', async () => {
    const w = await world();
    blobs(w).set('orphan-key', Buffer.from('left behind'));
    blobs(w).set('other-orphan', Buffer.from('also left behind'));
    expect(await w.app.attachments.sweep()).to.deep.equal({ expired: 0, orphans: 2 });
    expect(blobs(w).has('orphan-key')).to.equal(false);
    expect(blobs(w).has('other-orphan')).to.equal(false);
    expect(await w.app.attachments.sweep()).to.deep.equal({ expired: 0, orphans: 0 });
  });

  it("an expired upload's bytes stay while an attachment of the same content names them", async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const ticket = await w.ticket(ada);
    const kept = await upload(w, ada, 'same bytes');
    rightOf(await post(w, ada, ticket, [kept.id]));
    const loose = await upload(w, ada, 'same bytes');
    expect(loose.sha256).to.equal(kept.sha256);
    w.clock.advance(TTL_MS);
    expect(await w.app.attachments.sweep()).to.deep.equal({ expired: 1, orphans: 0 });
    expect(blobs(w).has(kept.sha256)).to.equal(true);
    expect(leftOf(await w.app.attachments.get(ada, loose.id))._tag).to.equal('NotFound');
  });

  it('expires every due upload, and erases the bytes of those that alone held them', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const one = await upload(w, ada, 'one');
    const two = await upload(w, ada, 'two');
    w.clock.advance(TTL_MS);
    expect(await w.app.attachments.sweep()).to.deep.equal({ expired: 2, orphans: 0 });
    expect(blobs(w).has(one.sha256)).to.equal(false);
    expect(blobs(w).has(two.sha256)).to.equal(false);
  });
});
