import { summaryOf, withoutAttachment, type Attachment } from '@support/domain';
import { expect } from 'chai';
import { anUpload, aMessage, attachmentId, DAY, messageNumber, minutes, T0, ticketId, userId } from './mothers.js';
import { freshStorePerTest, type MakeStore } from './store-factory.js';

/** A message by `authorId` at `at` carrying the given uploads. */
const carrying = (
  n: number,
  uploads: readonly Attachment[],
  spec: { authorId?: number; at?: number; internal?: boolean } = {},
) =>
  aMessage({
    ticketId: 1,
    number: n,
    authorId: spec.authorId ?? 1,
    createdAt: spec.at ?? T0 + minutes(1),
    internal: spec.internal ?? false,
    attachments: uploads.map(summaryOf),
  });

/** The AttachmentRepository port's promises, and the MessageRepository's about attachments, for any store. */
export function describeAttachmentRepositoryContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: AttachmentRepository contract`, () => {
    const store = freshStorePerTest(makeStore);
    const attachments = () => store().attachments;
    const messages = () => store().messages;
    const upload = async (spec: Parameters<typeof anUpload>[0] = {}): Promise<Attachment> => {
      const u = anUpload(spec);
      expect(await attachments().insertUpload(u, 50)).to.equal(true);
      return u;
    };

    it('gives back an upload as stored; null for an id never stored', async () => {
      const u = await upload({ id: 3, filename: 'ünïcode.txt', scan: 'clean' });
      expect(await attachments().find(attachmentId(3))).to.deep.equal(u);
      expect(await attachments().find(attachmentId(4))).to.equal(null);
    });

    it("refuses an upload past the uploader's limit of unattached, unexpired ones, and stores nothing", async () => {
      await upload({ id: 1, uploaderId: 7 });
      await upload({ id: 2, uploaderId: 7, expiresAt: T0 - 1 }); // expired: not counted
      await upload({ id: 3, uploaderId: 8 }); // another user's
      expect(await attachments().insertUpload(anUpload({ id: 4, uploaderId: 7 }), 1)).to.equal(false);
      expect(await attachments().find(attachmentId(4))).to.equal(null);
      expect(await attachments().countUnattached(userId(7), T0)).to.equal(1);
      expect(await attachments().insertUpload(anUpload({ id: 4, uploaderId: 7 }), 2)).to.equal(true);
    });

    it("keeps the limit when a user's first uploads arrive at once: 5 at once with a limit of 2 store 2", async () => {
      const stored = await Promise.all(
        [1, 2, 3, 4, 5].map((id) => attachments().insertUpload(anUpload({ id, uploaderId: 7 }), 2)),
      );
      expect(stored.filter(Boolean)).to.have.length(2);
      expect(await attachments().countUnattached(userId(7), T0)).to.equal(2);
    });

    it('counts only unattached uploads that have not expired at the given instant', async () => {
      const a = await upload({ id: 1, expiresAt: T0 + minutes(10) });
      await upload({ id: 2, expiresAt: T0 + minutes(20) });
      expect(await attachments().countUnattached(userId(1), T0 + minutes(15))).to.equal(1);
      expect(await messages().insert(carrying(1, [a], { at: T0 }))).to.deep.equal([]);
      expect(await attachments().countUnattached(userId(1), T0)).to.equal(1);
    });

    it('a new message takes its uploads: they become its attachments in the same write', async () => {
      const a = await upload({ id: 1 });
      const b = await upload({ id: 2, filename: 'log.txt', contentType: 'text/plain' });
      const m = carrying(1, [b, a]);
      expect(await messages().insert(m)).to.deep.equal([]);
      expect(await messages().find(ticketId(1), messageNumber(1))).to.deep.equal(m);
      const taken = await attachments().find(attachmentId(1));
      expect(taken?.message).to.deep.equal({ ticketId: 1, number: 1 });
      expect(taken?.expiresAt).to.equal(null);
    });

    it('refuses a message naming an upload it may not take, names each, and stores nothing', async () => {
      const own = await upload({ id: 1 });
      const others = await upload({ id: 2, uploaderId: 2 });
      const expired = await upload({ id: 3, expiresAt: T0 });
      const attached = await upload({ id: 4 });
      expect(await messages().insert(carrying(1, [attached], { at: T0 }))).to.deep.equal([]);
      const missing = anUpload({ id: 5 });
      const refused = await messages().insert(carrying(2, [own, others, expired, attached, missing]));
      expect([...refused].sort()).to.deep.equal([2, 3, 4, 5]);
      expect(await messages().find(ticketId(1), messageNumber(2))).to.equal(null);
      expect((await attachments().find(attachmentId(1)))?.message).to.equal(null);
    });

    it('an update that drops an attachment deletes it with the message write', async () => {
      const a = await upload({ id: 1 });
      const b = await upload({ id: 2 });
      const m = carrying(1, [a, b]);
      await messages().insert(m);
      const next = withoutAttachment(m, 1, T0 + minutes(5));
      expect(await messages().update(next, m.version)).to.equal(true);
      expect((await attachments().find(attachmentId(1)))?.deletedAt).to.equal(T0 + minutes(5));
      expect((await attachments().find(attachmentId(2)))?.deletedAt).to.equal(null);
      expect(await messages().update(withoutAttachment(next, 2, T0 + minutes(6)), m.version)).to.equal(false);
      expect((await attachments().find(attachmentId(2)))?.deletedAt).to.equal(null);
    });

    it('says whether a record that holds bytes names a blob', async () => {
      const a = await upload({ id: 1, blobKey: 'k1' });
      await upload({ id: 2, blobKey: 'k2' });
      const m = carrying(1, [a]);
      await messages().insert(m);
      expect(await attachments().references('k1')).to.equal(true);
      expect(await attachments().references('k2')).to.equal(true);
      expect(await attachments().references('k3')).to.equal(false);
      await messages().update(withoutAttachment(m, 1, T0 + minutes(5)), m.version);
      expect(await attachments().references('k1')).to.equal(false);
      expect(await attachments().removeUpload(attachmentId(2))).to.equal(true);
      expect(await attachments().references('k2')).to.equal(false);
    });

    it('lists expired unattached uploads, earliest first, and removes only unattached ones', async () => {
      await upload({ id: 1, expiresAt: T0 + minutes(3) });
      await upload({ id: 2, expiresAt: T0 + minutes(1) });
      await upload({ id: 3, expiresAt: T0 + DAY });
      const a = await upload({ id: 4, expiresAt: T0 + minutes(2) });
      await messages().insert(carrying(1, [a], { at: T0 }));
      const due = await attachments().expired(T0 + minutes(5), 10);
      expect(due.map((u) => u.id)).to.deep.equal([2, 1]);
      expect((await attachments().expired(T0 + minutes(5), 1)).map((u) => u.id)).to.deep.equal([2]);
      expect(await attachments().removeUpload(attachmentId(4))).to.equal(false);
      expect(await attachments().removeUpload(attachmentId(2))).to.equal(true);
      expect(await attachments().removeUpload(attachmentId(2))).to.equal(false);
      expect(await attachments().find(attachmentId(2))).to.equal(null);
    });

    it("pages a ticket's attachments by message, then in each message's order, internal notes only when asked", async () => {
      const u = await Promise.all([1, 2, 3, 4].map((id) => upload({ id })));
      const [a, b, c, d] = u as [Attachment, Attachment, Attachment, Attachment];
      await messages().insert(carrying(1, [b, a]));
      await messages().insert(carrying(2, [c], { internal: true }));
      const third = carrying(3, [d]);
      await messages().insert(third);
      await messages().insert(aMessage({ ticketId: 2, number: 1 }));
      const ids = async (internal: boolean, offset = 0, limit = 10) =>
        (await messages().attachments(ticketId(1), internal, offset, limit)).items.map((x) => [
          x.number,
          x.attachment.id,
        ]);
      expect(await ids(true)).to.deep.equal([
        [1, 2],
        [1, 1],
        [2, 3],
        [3, 4],
      ]);
      expect(await ids(false)).to.deep.equal([
        [1, 2],
        [1, 1],
        [3, 4],
      ]);
      expect(await ids(true, 1, 2)).to.deep.equal([
        [1, 1],
        [2, 3],
      ]);
      const page = await messages().attachments(ticketId(1), true, 1, 2);
      expect(page.total).to.equal(4);
      expect(page.items[0]?.authorId).to.equal(1);
      expect(page.items[0]?.attachment).to.deep.equal(summaryOf(a));
      await messages().update({ ...third, deletedAt: T0 + minutes(9), version: 2 }, 1);
      expect(await ids(true)).to.deep.equal([
        [1, 2],
        [1, 1],
        [2, 3],
      ]);
    });
  });
}
