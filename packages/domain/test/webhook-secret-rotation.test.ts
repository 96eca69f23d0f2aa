import { expect } from 'chai';
import { rotatedSecret, secretOverlapMs, signingSecrets, type Webhook, type WebhookId } from '../src/index.js';

// contract §11: rotate-secret keeps the old secret signing for 24 hours beside the new one.

const hook: Webhook = {
  id: 3 as WebhookId,
  url: 'https://example.com/hook',
  events: ['*'],
  description: '',
  active: true,
  secret: 'whsec_old',
  lastDeliveredSeq: 0,
  failedAttempts: 0,
  nextAttemptAt: null,
  createdAt: 0,
  updatedAt: 0,
  version: 1,
};

describe('domain: a webhook secret rotation overlaps for 24 hours', () => {
  it('signs with the new secret, and with the old one until 24 hours after the rotation', () => {
    const now = 1_700_000_000_000;
    expect(secretOverlapMs).to.equal(24 * 60 * 60 * 1000);
    expect(signingSecrets(hook, now)).to.deep.equal(['whsec_old']);
    const rotated: Webhook = { ...hook, ...rotatedSecret(hook, 'whsec_new', now) };
    expect(rotated.previousSecret).to.deep.equal({ secret: 'whsec_old', until: now + secretOverlapMs });
    expect(signingSecrets(rotated, now)).to.deep.equal(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, now + secretOverlapMs - 1)).to.deep.equal(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, now + secretOverlapMs)).to.deep.equal(['whsec_new']);
    // A second rotation keeps only the secret it replaced.
    const twice: Webhook = { ...rotated, ...rotatedSecret(rotated, 'whsec_third', now + 1000) };
    expect(signingSecrets(twice, now + 1000)).to.deep.equal(['whsec_third', 'whsec_new']);
  });
});
