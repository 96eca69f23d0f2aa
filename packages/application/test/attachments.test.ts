import type { Attachment, AttachmentId, MessageNumber } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { createHash } from 'node:crypto';
import type { Actor, UploadInput } from '../src/index.js';
import { decoded, leftOf, page, rightOf, world, type World } from './support/world.js';

// Uploads and attachments as the use cases serve them (contract §9): a file is named, counted
// and bounded before it is kept; an upload is its uploader's until a message takes it or its
// time runs out; an attachment is visible exactly when its message is; a deleted one is gone.

const chunks = async function* (bytes: Buffer): AsyncIterable<Uint8Array> {
  yield await Promise.resolve(bytes);
};
const file = (text: string, spec: Partial<UploadInput> = {}): UploadInput => ({
  filename: 'notes.txt',
  declaredType: 'text/plain',
  source: chunks(Buffer.from(text)),
  detectedType: () => Promise.resolve(null),
  ...spec,
});
const upload = async (w: World, who: Actor, text: string, spec: Partial<UploadInput> = {}): Promise<Attachment> =>
  rightOf(await rightOf(await w.app.attachments.upload(who, file(text, spec))).keep());
const bytesOf = async (source: AsyncIterable<Uint8Array>): Promise<string> => {
  const parts: Uint8Array[] = [];
  for await (const c of source) parts.push(c);
  return Buffer.concat(parts).toString();
};
const blobs = (w: World) => (w.ports.blobs as unknown as { bytes: Map<string, Buffer> }).bytes;
const TTL_MS = 3600 * 1000;

describe('use case: attachments (contract §9)', () => {
  it('an upload is named, sized, hashed and kept for its uploader until its time runs out', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const pending = rightOf(
      await w.app.attachments.upload(ada, file('hello', { filename: '../../.secret notes.txt' })),
    );
    expect({ size: pending.size, sha256: pending.sha256 }).to.deep.equal({
      size: 5,
      sha256: createHash('sha256').update('hello').digest('hex'),
    });
    const kept = rightOf(await pending.keep());
    expect(kept).to.deep.include({
      uploaderId: ada.user.id,
      filename: 'secret notes.txt',
      contentType: 'text/plain',
      size: 5,
      scan: 'not_scanned',
      createdAt: w.clock.now(),
      expiresAt: w.clock.now() + TTL_MS,
      message: null,
      deletedAt: null,
    });
    expect(rightOf(await w.app.attachments.get(ada, kept.id))).to.deep.equal({
      attachment: kept,
      changedAt: kept.createdAt,
    });
    expect(leftOf(await w.app.attachments.get(await w.customer('Bob'), kept.id))).to.deep.equal({
      _tag: 'NotFound',
      resource: 'attachment',
      id: String(kept.id),
    });
    expect(leftOf(await w.app.attachments.get(w.admin, kept.id))._tag).to.equal('NotFound');
    w.clock.advance(TTL_MS);
    expect(leftOf(await w.app.attachments.get(ada, kept.id))._tag).to.equal('NotFound');
    expect(await w.app.attachments.sweep()).to.deep.include({ expired: 1 });
    expect(blobs(w).has(kept.sha256)).to.equal(false);
    expect(await w.app.attachments.sweep()).to.deep.include({ expired: 0 });
  });

  it('refuses a file without a usable name, too large, or beyond 50 unattached uploads, keeping nothing', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    expect(leftOf(await w.app.attachments.upload(ada, file('x', { filename: null })))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [
        {
          field: 'filename',
          code: 'required',
          message: "name the file: ?filename=, Content-Disposition, or the multipart part's filename",
        },
      ],
    });
    expect(leftOf(await w.app.attachments.upload(ada, file('x', { filename: '...' })))).to.deep.equal({
      _tag: 'ValidationFailed',
      errors: [
        {
          field: 'filename',
          code: 'invalid_length',
          message: 'must be 1-255 characters once path separators, control characters and leading dots are removed',
        },
      ],
    });
    const big = Buffer.alloc(1024 * 1024 + 1, 1);
    expect(leftOf(await w.app.attachments.upload(ada, { ...file(''), source: chunks(big) }))).to.deep.equal({
      _tag: 'UploadTooLarge',
      limit: 1024 * 1024,
    });
    for (let i = 0; i < 50; i++) await upload(w, ada, `file ${String(i)}`);
    expect(leftOf(await w.app.attachments.upload(ada, file('one more')))).to.deep.equal({
      _tag: 'TooManyUploads',
      limit: 50,
    });
    // A second request that passed the count before the 50th was kept is refused when it is kept.
    const bob = await w.customer('Bob');
    for (let i = 0; i < 49; i++) await upload(w, bob, `bob ${String(i)}`);
    const [a, b] = [
      rightOf(await w.app.attachments.upload(bob, file('race a'))),
      rightOf(await w.app.attachments.upload(bob, file('race b'))),
    ];
    rightOf(await a.keep());
    expect(leftOf(await b.keep())).to.deep.equal({ _tag: 'TooManyUploads', limit: 50 });
    expect(blobs(w).has(b.sha256)).to.equal(false);
  });

  it('a scanner judges every upload: infected or unanswered, it is refused and discarded', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const ports = w.ports as { scanner: unknown };
    ports.scanner = {
      scan: async (bytes: AsyncIterable<Uint8Array>) => {
        const text = await bytesOf(bytes);
        return text.includes('EICAR')
          ? { kind: 'infected', signature: 'Eicar-Test-Signature' }
          : text.includes('slow')
            ? { kind: 'unavailable', reason: 'timeout' }
            : { kind: 'clean' };
      },
    };
    expect((await upload(w, ada, 'fine')).scan).to.equal('clean');
    expect(leftOf(await w.app.attachments.upload(ada, file('X5O EICAR')))).to.deep.equal({
      _tag: 'Infected',
      signature: 'Eicar-Test-Signature',
    });
    expect(leftOf(await w.app.attachments.upload(ada, file('slow')))).to.deep.equal({ _tag: 'ScannerUnavailable' });
    ports.scanner = { scan: () => Promise.reject(new Error('scanner defect')) };
    let thrown: unknown = null;
    try {
      await w.app.attachments.upload(ada, file('boom'));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).to.be.instanceOf(Error);
  });

  it('the content type is the one the bytes show, else a safe declared one, else octet-stream', async () => {
    const w = await world();
    const ada = await w.customer('Ada');
    const png = () => Promise.resolve('image/png');
    expect((await upload(w, ada, 'a', { detectedType: png, declaredType: 'text/html' })).contentType).to.equal(
      'image/png',
    );
    expect((await upload(w, ada, 'b', { declaredType: 'text/plain; charset=utf-8' })).contentType).to.equal(
      'text/plain',
    );
    expect((await upload(w, ada, 'c', { declaredType: 'text/html' })).contentType).to.equal('application/octet-stream');
    expect((await upload(w, ada, 'd', { declaredType: null })).contentType).to.equal('application/octet-stream');
  });

  describe('on a message', () => {
    const setup = async () => {
      const w = await world();
      const ada = await w.customer('Ada');
      const agent = await w.agent();
      const ticket = await w.ticket(ada);
      const shared = await upload(w, ada, 'public bytes');
      const note = await upload(w, agent, 'internal bytes');
      const m1 = rightOf(
        await w.app.messages.create(ada, ticket, decoded({ body: 'see file', attachmentIds: [shared.id] })),
      );
      const m2 = rightOf(
        await w.app.messages.create(agent, ticket, decoded({ body: 'note', internal: true, attachmentIds: [note.id] })),
      );
      return { w, ada, agent, ticket, shared, note, m1, m2 };
    };

    it('changed when its message took it: its Last-Modified moves with its message and ticket links', async () => {
      const w = await world();
      const ada = await w.customer('Ada');
      const ticket = await w.ticket(ada);
      const file = await upload(w, ada, 'later attached');
      expect(rightOf(await w.app.attachments.get(ada, file.id)).changedAt).to.equal(file.createdAt);
      w.clock.advance(7000);
      const m = rightOf(await w.app.messages.create(ada, ticket, decoded({ body: 'x', attachmentIds: [file.id] })));
      expect(m.createdAt).to.equal(file.createdAt + 7000);
      expect(rightOf(await w.app.attachments.get(ada, file.id)).changedAt).to.equal(m.createdAt);
    });

    it('is visible exactly when its message is', async () => {
      const { w, ada, agent, ticket, shared, note } = await setup();
      expect(rightOf(await w.app.attachments.get(agent, shared.id)).attachment.message).to.deep.equal({
        ticketId: ticket,
        number: 1,
      });
      expect(rightOf(await w.app.attachments.get(ada, shared.id)).attachment.id).to.equal(shared.id);
      expect(leftOf(await w.app.attachments.get(ada, note.id))).to.deep.equal({
        _tag: 'NotFound',
        resource: 'attachment',
        id: String(note.id),
      });
      expect(leftOf(await w.app.attachments.get(await w.customer('Eve'), shared.id))._tag).to.equal('NotFound');
      const listed = (who: Actor) => w.app.attachments.list(who, ticket, page());
      expect(rightOf(await listed(agent)).items.map((a) => a.attachment.id)).to.deep.equal([shared.id, note.id]);
      expect(rightOf(await listed(ada)).total).to.equal(1);
      expect(
        leftOf(await w.app.attachments.list(ada, ticket, E.left([{ parameter: 'page', value: 'x', message: 'bad' }])))
          ._tag,
      ).to.equal('InvalidQuery');
      expect(leftOf(await w.app.attachments.list(await w.customer('Eve'), ticket, page()))._tag).to.equal('NotFound');
    });

    it('its bytes are read whole or by range', async () => {
      const { w, ada, shared } = await setup();
      const content = rightOf(await w.app.attachments.content(ada, shared.id));
      expect(content.attachment.id).to.equal(shared.id);
      expect(await bytesOf(await content.open())).to.equal('public bytes');
      expect(await bytesOf(await content.open({ start: 7, end: 11 }))).to.equal('bytes');
      expect(leftOf(await w.app.attachments.content(await w.customer('Eve'), shared.id))._tag).to.equal('NotFound');
      blobs(w).clear();
      let thrown: unknown = null;
      try {
        await content.open();
      } catch (e) {
        thrown = e;
      }
      expect(String(thrown)).to.equal(`Error: the bytes of attachment ${String(shared.id)} are missing`);
    });

    it('agents and admins delete one: its message drops it, it is gone, its bytes erased', async () => {
      const { w, ada, agent, ticket, shared, m1 } = await setup();
      expect(leftOf(await w.app.attachments.delete(ada, shared.id))).to.deep.equal({
        _tag: 'Forbidden',
        message: 'customers may not delete attachments',
      });
      w.clock.advance(5000);
      const before = rightOf(await w.app.attachments.get(agent, shared.id)).attachment;
      expect(rightOf(await w.app.attachments.delete(agent, shared.id))).to.deep.equal(before);
      const message = rightOf(await w.app.messages.get(agent, ticket, 1 as MessageNumber));
      expect({ attachments: message.attachments, version: message.version }).to.deep.equal({
        attachments: [],
        version: m1.version + 1,
      });
      expect(leftOf(await w.app.attachments.get(agent, shared.id))).to.deep.equal({
        _tag: 'Gone',
        resource: 'attachment',
        id: String(shared.id),
      });
      expect(blobs(w).has(shared.sha256)).to.equal(false);
    });

    it('a deleted message takes its attachments with it', async () => {
      const { w, agent, ticket, shared } = await setup();
      rightOf(await w.app.messages.delete(agent, ticket, 1 as MessageNumber));
      expect(leftOf(await w.app.attachments.get(agent, shared.id))._tag).to.equal('Gone');
    });

    it('an upload is deleted by its (staff) uploader before a message takes it', async () => {
      const { w, agent } = await setup();
      const loose = await upload(w, agent, 'loose bytes');
      expect(rightOf(await w.app.attachments.delete(agent, loose.id))).to.deep.equal(loose);
      expect(leftOf(await w.app.attachments.get(agent, loose.id))._tag).to.equal('NotFound');
      expect(leftOf(await w.app.attachments.delete(agent, 999 as AttachmentId))._tag).to.equal('NotFound');
    });
  });
});
