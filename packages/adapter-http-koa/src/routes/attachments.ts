import type { AttachmentId, TicketId } from '@support/domain';
import { fileTypeFromBuffer } from 'file-type';
import { contentReply } from '../conventions/content-answer.js';
import { readUpload } from '../conventions/upload-body.js';
import { uploadPacer } from '../conventions/upload-pacing.js';
import { decodePage } from '../decode/page.js';
import { claimStreamed } from '../pipeline/idempotency.js';
import { answerRepeat } from './repeat-gate.js';
import { created, ok } from '../reply.js';
import { attachmentRepresentation, recordRepresentation } from '../representations/attachment.js';
import type { RouteContext, Services } from '../state.js';
import { attachmentDeclarations } from './attachment-operations.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';

// Files on messages (contract §9): uploads, the attachments of a ticket, one attachment, its
// bytes, and its deletion. A file's bytes are never in a JSON body: they stream in
// (conventions/upload-body.ts) and out (conventions/content-answer.ts).

/** What the leading bytes show (file-type, a maintained detector of magic numbers). */
const detect = async (leading: Buffer): Promise<string | null> =>
  leading.length === 0 ? null : ((await fileTypeFromBuffer(leading))?.mime ?? null);

export const attachmentRoutes = (api: DeclaringRouter, services: Services): void => {
  const { app, urls, options } = services;
  const op = attachmentDeclarations(urls.origin);
  const attachmentId = (ctx: RouteContext): AttachmentId => idParam(ctx, 'attachmentId', 'attachment') as AttachmentId;
  const pacer = uploadPacer({
    concurrent: options.uploadConcurrency,
    waitMs: options.requestTimeoutMs,
    minBytesPerSecond: options.uploadMinBytesPerSecond,
  });

  api.post('/v1/uploads', op.createUpload, async (ctx) => {
    const actor = actorOf(ctx);
    const body = await readUpload(ctx, options.uploadMaxBytes, pacer);
    const pending = unwrap(
      await app.attachments.upload(actor, {
        filename: body.filename,
        declaredType: body.declaredType,
        source: body.source,
        release: body.release,
        detectedType: () => detect(body.leading()),
      }),
    );
    let guard = null;
    try {
      // A repeat of a kept upload (Idempotency-Key) is answered with the kept answer, after the
      // caller's checks (answerRepeat); its bytes go.
      guard = await claimStreamed(services, ctx, () => body.bodyHash(pending.sha256));
      if (guard === null) {
        const answer = ctx.state.pendingReplay;
        if (answer !== null) answerRepeat(services, ctx, answer);
        return;
      }
    } finally {
      if (guard === null) await pending.discard();
    }
    // Kept in the key's guard: its write marks the claim (a crash never keeps it twice).
    const upload = unwrap(await guard(() => pending.keep()));
    ctx.state.reply = created(recordRepresentation(urls, upload), urls.attachment(upload.id), upload.createdAt);
  });

  api.get('/v1/tickets/:ticketId/attachments', op.listTicketAttachments, async (ctx) => {
    const ticketId = idParam(ctx, 'ticketId', 'ticket') as TicketId;
    const l = unwrap(await app.attachments.list(actorOf(ctx), ticketId, decodePage(ctx.query)));
    ctx.state.reply = ok(
      l.items.map((i) =>
        attachmentRepresentation(urls, { ...i.attachment, expiresAt: null }, i.authorId, {
          ticketId,
          number: i.number,
        }),
      ),
      { page: pageInfo(l) },
    );
  });

  api.get('/v1/attachments/:attachmentId', op.getAttachment, async (ctx) => {
    const { attachment, changedAt } = unwrap(await app.attachments.get(actorOf(ctx), attachmentId(ctx)));
    ctx.state.reply = ok(recordRepresentation(urls, attachment), { lastModified: changedAt });
  });

  api.delete('/v1/attachments/:attachmentId', op.deleteAttachment, async (ctx) => {
    unwrap(await app.attachments.delete(actorOf(ctx), attachmentId(ctx)));
    ctx.state.reply = { status: 204, body: undefined };
  });

  api.get('/v1/attachments/:attachmentId/content', op.getAttachmentContent, async (ctx) => {
    const c = unwrap(await app.attachments.content(actorOf(ctx), attachmentId(ctx)));
    ctx.state.reply = contentReply(ctx, { ...c.attachment, open: (range) => c.open(range) });
  });
};
