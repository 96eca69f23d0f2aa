import type { AppContext } from '../state.js';

/**
 * Puts headers on the answer. Link is appended rather than set: links come from more than
 * one place (a deprecated route's link, a list's page links; RFC 8288 lets them stand side
 * by side), and setting it would drop those already there.
 */
export const setHeaders = (ctx: Pick<AppContext, 'append' | 'set'>, headers: Readonly<Record<string, string>>): void => {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Link') ctx.append(name, value);
    else ctx.set(name, value);
  }
};
