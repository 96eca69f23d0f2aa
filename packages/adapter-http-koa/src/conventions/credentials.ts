// Where a request carries its access token. The same token works three ways:
//   Authorization: Bearer <token>
//   Authorization: Basic base64(<token>:)   (token as user name, empty password)
//   ?access_token=<token>                   (for JSONP, which cannot send headers)
// RFC 6750 §2: a client must not use more than one way in one request.

export type Credentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string }
  /** Credentials that cannot hold a token (another scheme, a Basic password): as good as a wrong token. */
  | { readonly kind: 'unusable'; readonly reason: string }
  | { readonly kind: 'ambiguous' };

const fromAuthorization = (header: string): Credentials => {
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer')
    return value === '' ? { kind: 'unusable', reason: 'empty Bearer token' } : { kind: 'token', token: value };
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const user = colon < 0 ? decoded : decoded.slice(0, colon);
    const password = colon < 0 ? '' : decoded.slice(colon + 1);
    if (user === '') return { kind: 'unusable', reason: 'Basic credentials without a user name' };
    if (password !== '')
      return { kind: 'unusable', reason: 'Basic credentials carry the token as user name and an empty password' };
    return { kind: 'token', token: user };
  }
  return { kind: 'unusable', reason: `unsupported authorization scheme "${scheme.slice(0, 20)}"` };
};

export const credentialsOf = (
  authorization: string,
  accessToken: string | readonly string[] | undefined,
): Credentials => {
  if (Array.isArray(accessToken)) return { kind: 'ambiguous' };
  const fromQuery = typeof accessToken === 'string' ? accessToken : undefined;
  if (authorization !== '' && fromQuery !== undefined) return { kind: 'ambiguous' };
  if (authorization !== '') return fromAuthorization(authorization);
  if (fromQuery !== undefined)
    return fromQuery === '' ? { kind: 'unusable', reason: 'empty access_token' } : { kind: 'token', token: fromQuery };
  return { kind: 'none' };
};
