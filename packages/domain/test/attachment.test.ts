import { expect } from 'chai';
import {
  attachmentLimits,
  attachTo,
  decideContentType,
  fallbackContentType,
  holdsBytes,
  isAttachable,
  mediaTypeOf,
  normaliseFilename,
  showsInline,
  summaryOf,
  type Attachment,
} from '../src/index.js';
import { attachmentId, messageNumber, T0, ticketId, userId } from '../test-support/mothers.js';

// Contract §9's rules for files, each stated once: who may attach an upload and when, what a
// stored name may hold, which types are believed and which are ever shown inline.

const upload = (over: Partial<Attachment> = {}): Attachment => ({
  id: attachmentId(1),
  uploaderId: userId(2),
  filename: 'error.png',
  contentType: 'image/png',
  size: 10,
  sha256: 'a'.repeat(64),
  blobKey: 'a'.repeat(64),
  scan: 'clean',
  createdAt: T0,
  expiresAt: T0 + 1000,
  message: null,
  deletedAt: null,
  ...over,
});

const ref = { ticketId: ticketId(3), number: messageNumber(4) };

describe('attachment', () => {
  it('states its limits: 10 per message, 50 unattached per user, names of 1 to 255 characters', () => {
    expect(attachmentLimits).to.deep.equal({ perMessage: 10, unattachedPerUser: 50, filename: { min: 1, max: 255 } });
  });

  it("summaryOf keeps what a message lists and nothing of the record's bookkeeping", () => {
    expect(summaryOf(upload())).to.deep.equal({
      id: 1,
      filename: 'error.png',
      contentType: 'image/png',
      size: 10,
      sha256: 'a'.repeat(64),
      scan: 'clean',
      createdAt: T0,
    });
  });

  describe('isAttachable', () => {
    it("is the author's own unattached, undeleted upload before it expires", () => {
      expect(isAttachable(upload(), userId(2), T0)).to.equal(true);
      expect(isAttachable(upload(), userId(2), T0 + 999)).to.equal(true);
    });
    it("refuses another user's upload, an attached one, a deleted one, and one expired at or before now", () => {
      expect(isAttachable(upload(), userId(3), T0)).to.equal(false);
      expect(isAttachable(upload({ message: ref }), userId(2), T0)).to.equal(false);
      expect(isAttachable(upload({ deletedAt: T0 }), userId(2), T0)).to.equal(false);
      expect(isAttachable(upload(), userId(2), T0 + 1000)).to.equal(false);
      expect(isAttachable(upload({ expiresAt: null }), userId(2), T0)).to.equal(false);
    });
  });

  it('attachTo gives the upload its message and drops its expiry; holdsBytes until deleted', () => {
    expect(attachTo(upload(), ref)).to.deep.equal(upload({ message: ref, expiresAt: null }));
    expect(holdsBytes(upload())).to.equal(true);
    expect(holdsBytes(upload({ message: ref }))).to.equal(true);
    expect(holdsBytes(upload({ deletedAt: T0 }))).to.equal(false);
  });

  describe('normaliseFilename', () => {
    it('composes to NFC', () => {
      expect(normaliseFilename('U\u0308bersicht.txt')).to.equal('\u00dcbersicht.txt');
    });
    it('removes path separators, control characters (C0, DEL, C1) and bidirectional overrides', () => {
      expect(normaliseFilename('../etc/passwd')).to.equal('etcpasswd');
      expect(normaliseFilename('a\\b\u0000c\u001fd\u007fe\u0085f\u009fg.txt')).to.equal('abcdefg.txt');
      expect(normaliseFilename('invoice\u202egpj.exe')).to.equal('invoicegpj.exe');
      expect(normaliseFilename('x\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069y')).to.equal('xy');
      expect(normaliseFilename('tab\there')).to.equal('tabhere');
    });
    it('keeps other characters, inner dots and spaces', () => {
      expect(normaliseFilename('Report v1.2 (final) – ok.tar.gz')).to.equal('Report v1.2 (final) – ok.tar.gz');
      expect(normaliseFilename('\u0080\u00a0x')).to.equal('\u00a0x');
    });
    it('removes leading dots only', () => {
      expect(normaliseFilename('...hidden.')).to.equal('hidden.');
    });
    it('drops lone surrogates and counts a surrogate pair as one character', () => {
      expect(normaliseFilename('a\ud800b\udfffc')).to.equal('abc');
      expect(normaliseFilename('😀'.repeat(255))).to.equal('😀'.repeat(255));
      expect(normaliseFilename('😀'.repeat(256))).to.equal(null);
    });
    it('is null when nothing is left or more than 255 characters are', () => {
      expect(normaliseFilename('')).to.equal(null);
      expect(normaliseFilename('...')).to.equal(null);
      expect(normaliseFilename('/\u0000')).to.equal(null);
      expect(normaliseFilename('a')).to.equal('a');
      expect(normaliseFilename('a'.repeat(255))).to.equal('a'.repeat(255));
      expect(normaliseFilename('a'.repeat(256))).to.equal(null);
      expect(normaliseFilename(`/${'a'.repeat(255)}`)).to.equal('a'.repeat(255));
    });
  });

  it('shows inline exactly the raster images png, jpeg, gif and webp', () => {
    for (const t of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) expect(showsInline(t), t).to.equal(true);
    for (const t of ['image/svg+xml', 'text/html', 'image/bmp', 'application/pdf', ''])
      expect(showsInline(t), t).to.equal(false);
  });

  describe('mediaTypeOf', () => {
    it('is the lower-cased type without parameters', () => {
      expect(mediaTypeOf('Text/Plain; charset=utf-8')).to.equal('text/plain');
      expect(mediaTypeOf('  application/vnd.ms-excel ')).to.equal('application/vnd.ms-excel');
      expect(mediaTypeOf('a!#$&^_.+-/b!#$&^_.+-')).to.equal('a!#$&^_.+-/b!#$&^_.+-');
    });
    it('is null for what is not a media type', () => {
      for (const bad of [
        '',
        'text',
        'text/',
        '/plain',
        'text/plain/x',
        'te xt/plain',
        '-text/plain',
        'text/-plain',
        'téxt/plain',
      ])
        expect(mediaTypeOf(bad), bad).to.equal(null);
    });
    it('takes 127 characters a side, not 128', () => {
      expect(mediaTypeOf(`${'a'.repeat(127)}/${'b'.repeat(127)}`)).to.equal(`${'a'.repeat(127)}/${'b'.repeat(127)}`);
      expect(mediaTypeOf(`${'a'.repeat(128)}/b`)).to.equal(null);
      expect(mediaTypeOf(`a/${'b'.repeat(128)}`)).to.equal(null);
    });
  });

  describe('decideContentType', () => {
    it('believes the leading bytes first', () => {
      expect(decideContentType('image/png', 'text/plain')).to.equal('image/png');
      expect(decideContentType('application/pdf', null)).to.equal('application/pdf');
    });
    it('keeps a declared type no browser runs', () => {
      const safe = [
        'text/plain',
        'text/csv',
        'text/tab-separated-values',
        'text/markdown',
        'text/calendar',
        'text/vcard',
        'application/json',
        'application/x-ndjson',
        'application/octet-stream',
      ];
      for (const t of safe) expect(decideContentType(null, `${t.toUpperCase()}; charset=utf-8`), t).to.equal(t);
    });
    it('turns active content, images without their bytes, nonsense and nothing into octet-stream', () => {
      expect(fallbackContentType).to.equal('application/octet-stream');
      for (const t of [
        'text/html',
        'image/svg+xml',
        'application/javascript',
        'text/xml',
        'image/png',
        'nonsense',
        null,
      ])
        expect(decideContentType(null, t), String(t)).to.equal('application/octet-stream');
    });
  });
});
