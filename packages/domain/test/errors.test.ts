import { expect } from 'chai';
import {
  conflict,
  feedExpired,
  fieldError,
  forbidden,
  forbiddenFields,
  gone,
  infected,
  insufficientScope,
  invalidQuery,
  loginThrottled,
  notFound,
  preconditionFailed,
  scannerUnavailable,
  tooManyUploads,
  unauthenticated,
  uploadTooLarge,
  validationFailed,
  wrongCurrentPassword,
} from '../src/index.js';

// The domain's expected failures are plain tagged values; the HTTP adapter maps each tag in
// one table, so a tag or a field that changes here changes an answer there.

describe('domain: expected failures', () => {
  it('carry the refused fields, or the refused query parameters', () => {
    const field = fieldError('subject', 'invalid_length', 'too long');
    expect(field).to.deep.equal({ field: 'subject', code: 'invalid_length', message: 'too long' });
    expect(validationFailed([field])).to.deep.equal({ _tag: 'ValidationFailed', errors: [field] });
    const issue = { parameter: 'sort', value: 'colour', message: 'unknown sort field' };
    expect(invalidQuery([issue])).to.deep.equal({ _tag: 'InvalidQuery', issues: [issue] });
  });

  it('name the resource that is missing or gone, its id as text', () => {
    expect(notFound('ticket', 7)).to.deep.equal({ _tag: 'NotFound', resource: 'ticket', id: '7' });
    expect(notFound('user', 'me')).to.deep.equal({ _tag: 'NotFound', resource: 'user', id: 'me' });
    expect(gone('message', 3)).to.deep.equal({ _tag: 'Gone', resource: 'message', id: '3' });
  });

  it('say why a caller is refused', () => {
    expect(forbidden('only admins manage webhooks')).to.deep.equal({
      _tag: 'Forbidden',
      message: 'only admins manage webhooks',
    });
    expect(forbiddenFields('a customer may not set', ['assignedUserId', 'groupId'])).to.deep.equal({
      _tag: 'Forbidden',
      message: 'a customer may not set',
      fields: ['assignedUserId', 'groupId'],
    });
    expect(insufficientScope(['tickets:write'])).to.deep.equal({
      _tag: 'InsufficientScope',
      needed: ['tickets:write'],
    });
    expect(unauthenticated('missing')).to.deep.equal({ _tag: 'Unauthenticated', reason: 'missing' });
    expect(unauthenticated('invalid')).to.deep.equal({ _tag: 'Unauthenticated', reason: 'invalid' });
  });

  it('tell a lost precondition, a conflict and an expired feed cursor apart', () => {
    expect(preconditionFailed).to.deep.equal({ _tag: 'PreconditionFailed' });
    expect(conflict('retry')).to.deep.equal({ _tag: 'Conflict', message: 'retry' });
    expect(feedExpired(41)).to.deep.equal({ _tag: 'FeedExpired', oldest: 41 });
  });

  it('tell the refusals of an upload apart: too large, too many, infected, no scanner', () => {
    expect(uploadTooLarge(10_485_760)).to.deep.equal({ _tag: 'UploadTooLarge', limit: 10_485_760 });
    expect(tooManyUploads(20)).to.deep.equal({ _tag: 'TooManyUploads', limit: 20 });
    expect(infected('Eicar-Signature')).to.deep.equal({ _tag: 'Infected', signature: 'Eicar-Signature' });
    expect(scannerUnavailable).to.deep.equal({ _tag: 'ScannerUnavailable' });
  });

  it('tell a wrong current password from a throttled login', () => {
    expect(wrongCurrentPassword).to.deep.equal({ _tag: 'WrongCurrentPassword' });
    expect(loginThrottled(90)).to.deep.equal({ _tag: 'LoginThrottled', retryAfterSeconds: 90 });
  });
});
