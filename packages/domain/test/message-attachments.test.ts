import { expect } from 'chai';
import { withoutAttachment, type AttachmentId, type AttachmentSummary } from '../src/index.js';
import { aMessage, T0 } from '../test-support/mothers.js';

// Deleting an attachment is a change of its message (contract §9): the message loses that one
// attachment, keeps the others in order, and moves to its next version.

const summary = (id: number): AttachmentSummary => ({
  id: id as AttachmentId,
  filename: `file-${String(id)}.txt`,
  contentType: 'text/plain',
  size: id,
  sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  scan: 'clean',
  createdAt: T0,
});

describe('message: deleting an attachment', () => {
  it('drops that attachment only, as a new version of the message', () => {
    const m = aMessage({ attachments: [summary(1), summary(2), summary(3)] });
    const after = withoutAttachment(m, 2, T0 + 1000);
    expect(after.attachments.map((a) => a.id)).to.deep.equal([1, 3]);
    expect(after.attachments[0]).to.deep.equal(summary(1));
    expect({ version: after.version, updatedAt: after.updatedAt, body: after.body }).to.deep.equal({
      version: m.version + 1,
      updatedAt: T0 + 1000,
      body: m.body,
    });
    expect(m.attachments).to.have.length(3);
  });
});
