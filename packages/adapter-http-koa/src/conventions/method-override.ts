import { problem } from '../errors/http-problem.js';

// Clients that can send only GET and POST may POST with X-HTTP-Method-Override: PUT,
// PATCH or DELETE. Only POST is overridden: a GET must stay safe, whatever its headers.

export const methodOverrideHeader = 'X-HTTP-Method-Override';
const overridable = ['PUT', 'PATCH', 'DELETE'];

/** The method to route a request as. */
export const effectiveMethod = (method: string, override: string): string => {
  if (method !== 'POST' || override === '') return method;
  const wanted = override.trim().toUpperCase();
  if (!overridable.includes(wanted)) {
    throw problem(
      'badMethodOverride',
      `X-HTTP-Method-Override must be one of ${overridable.join(', ')} (got "${override.slice(0, 32)}")`,
    );
  }
  return wanted;
};
