export const oauthError = (error, description) => ({
    _tag: 'OAuthError',
    error,
    description,
});
//# sourceMappingURL=oauth.js.map