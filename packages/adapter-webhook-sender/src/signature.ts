import { createHmac } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): the receiver verifies
// `webhook-signature` = "v1," + base64(HMAC-SHA256(key, "<id>.<timestamp>.<body>")), where the
// key is the base64-decoded part of the secret after "whsec_".

export const secretPrefix = 'whsec_';

/** The HMAC key of a `whsec_<base64>` secret. */
export const signingKey = (secret: string): Buffer => {
  if (!secret.startsWith(secretPrefix)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(secretPrefix.length), 'base64');
};

/** The `webhook-signature` header of a delivery. */
export const signDelivery = (secret: string, id: string, timestampSeconds: number, body: string): string =>
  `v1,${createHmac('sha256', signingKey(secret))
    .update(`${id}.${String(timestampSeconds)}.${body}`)
    .digest('base64')}`;
