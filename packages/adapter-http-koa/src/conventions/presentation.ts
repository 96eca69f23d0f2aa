import type { ParsedUrlQuery } from 'node:querystring';
import { errorKinds } from '../errors/error-table.js';
import { problem } from '../errors/http-problem.js';

// How the answer is laid out, chosen by query parameters on any request:
//   pretty=false          compact JSON (default: indented with 2 spaces)
//   envelope=true         status 200, body {status_code, next_page, response}
//   callback=<name>       JSONP: /**/name({...envelope...}); as application/javascript

export interface Presentation {
  readonly pretty: boolean;
  readonly envelope: boolean;
  /** A validated JSONP function name; implies the envelope. */
  readonly callback: string | null;
}

export const defaultPresentation: Presentation = { pretty: true, envelope: false, callback: null };

const callbackName = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
export const isCallbackName = (s: string): boolean => s.length <= 128 && callbackName.test(s);

const refused = (name: string, message: string): Error =>
  problem('badQueryParameter', message, {
    errors: [{ code: errorKinds.badQueryParameter.code, field: name, message }],
  });

/** A parameter read as one value: given twice it is refused as such, not for its value. */
const once = (query: ParsedUrlQuery, name: string): string | undefined => {
  const v = query[name];
  if (Array.isArray(v)) throw refused(name, `${name} must be given once (got ${v.length} values)`);
  return v;
};

const flag = (query: ParsedUrlQuery, name: string, fallback: boolean): boolean => {
  const v = once(query, name);
  if (v === undefined) return fallback;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw refused(name, `${name} must be true or false`);
};

/** The presentation a request asks for; a bad value is a 400 naming the parameter. */
export const parsePresentation = (query: ParsedUrlQuery): Presentation => {
  const pretty = flag(query, 'pretty', true);
  const envelope = flag(query, 'envelope', false);
  const cb = once(query, 'callback');
  if (cb === undefined) return { pretty, envelope, callback: null };
  if (!isCallbackName(cb)) {
    throw refused(
      'callback',
      'callback must be a JavaScript identifier path such as handle or app.on_tickets (at most 128 characters)',
    );
  }
  return { pretty, envelope: true, callback: cb };
};

/** For answering an error: whatever of the request's presentation is usable, never failing. */
export const lenientPresentation = (query: ParsedUrlQuery): Presentation => {
  const cb = query.callback;
  const callback = typeof cb === 'string' && isCallbackName(cb) ? cb : null;
  return { pretty: query.pretty !== 'false', envelope: query.envelope === 'true' || callback !== null, callback };
};
