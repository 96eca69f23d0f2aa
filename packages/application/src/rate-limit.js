/**
 * Counts one request of `subject`. Who is counted is the caller's decision (the HTTP
 * adapter's pipeline/rate-limit.ts); how much each subject may do is decided here.
 * Fixed windows: every subject's window starts at the same instants, so the count is one
 * shared counter in the store, whichever process answers.
 */
export const consumeRateLimit = async (ports, config, subject) => {
    const windowMs = config.windowSeconds * 1000;
    const now = ports.clock.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const key = subject.kind === 'user' ? `user:${subject.userId}` : `ip:${subject.ip}`;
    const limit = subject.kind === 'user' ? config.limit : Math.ceil(config.limit / 10);
    const count = await ports.rateLimits.hit(key, windowStart, windowMs);
    return {
        allowed: count <= limit,
        limit,
        remaining: Math.max(0, limit - count),
        resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
    };
};
//# sourceMappingURL=rate-limit.js.map