import { unauthenticated } from '@support/domain';
import * as E from 'fp-ts/lib/Either.js';
import { oauthError } from './oauth.js';
const badCredentials = oauthError('invalid_grant', 'the e-mail address or password is incorrect');
export const authUseCases = (ports, config) => {
    // Verifying against a real hash when the user does not exist makes an unknown e-mail
    // take as long as a wrong password: the answer and its timing are the same.
    let decoyHash = null;
    const decoy = () => (decoyHash ??= ports.passwords.hash(ports.secrets.generate()));
    const issue = async (user, familyId) => {
        const now = ports.clock.now();
        const accessToken = ports.secrets.generate();
        const refreshToken = ports.secrets.generate();
        await ports.tokens.save({
            hash: ports.secrets.digest(accessToken),
            kind: 'access',
            userId: user.id,
            familyId,
            expiresAt: now + config.accessTokenTtlSeconds * 1000,
        });
        await ports.tokens.save({
            hash: ports.secrets.digest(refreshToken),
            kind: 'refresh',
            userId: user.id,
            familyId,
            expiresAt: now + config.refreshTokenTtlSeconds * 1000,
        });
        return { accessToken, tokenType: 'bearer', expiresIn: config.accessTokenTtlSeconds, refreshToken };
    };
    return {
        async authenticate(token) {
            if (token === null || token === '')
                return E.left(unauthenticated('missing'));
            const record = await ports.tokens.find(ports.secrets.digest(token), ports.clock.now());
            if (record?.kind !== 'access')
                return E.left(unauthenticated('invalid'));
            const user = await ports.users.findById(record.userId);
            return user === null ? E.left(unauthenticated('invalid')) : E.right({ user });
        },
        async passwordGrant(username, password) {
            if (username === '' || password === '')
                return E.left(oauthError('invalid_request', 'username and password are required'));
            const user = await ports.users.findByEmail(username);
            const valid = await ports.passwords.verify(user?.passwordHash ?? (await decoy()), password);
            if (user === null || !valid)
                return E.left(badCredentials);
            return E.right(await issue(user, ports.secrets.generate()));
        },
        async refreshGrant(refreshToken) {
            if (refreshToken === '')
                return E.left(oauthError('invalid_request', 'refresh_token is required'));
            const hash = ports.secrets.digest(refreshToken);
            const now = ports.clock.now();
            const live = await ports.tokens.find(hash, now);
            if (live?.kind === 'access')
                return E.left(oauthError('invalid_grant', 'this is an access token, not a refresh token'));
            const used = await ports.tokens.consume(hash, now);
            switch (used.status) {
                case 'missing':
                    return E.left(oauthError('invalid_grant', 'the refresh token is unknown, expired or revoked'));
                case 'reused':
                    // A replayed refresh token means it leaked: end the whole session family.
                    await ports.tokens.revokeFamily(used.record.familyId);
                    return E.left(oauthError('invalid_grant', 'the refresh token was already used; its session has been revoked'));
                case 'consumed': {
                    const user = await ports.users.findById(used.record.userId);
                    if (user === null)
                        return E.left(oauthError('invalid_grant', 'the refresh token is unknown, expired or revoked'));
                    return E.right(await issue(user, used.record.familyId));
                }
            }
        },
        async revoke(token) {
            if (token === '')
                return;
            const hash = ports.secrets.digest(token);
            const record = await ports.tokens.find(hash, ports.clock.now());
            if (record?.kind === 'refresh')
                await ports.tokens.revokeFamily(record.familyId);
            else
                await ports.tokens.revoke(hash);
        },
    };
};
//# sourceMappingURL=use-cases.js.map