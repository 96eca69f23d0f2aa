// For clients that cannot read status codes or headers (JSONP, some browsers and
// proxies): with `envelope=true` or `callback=<name>` the answer is always 200 and the
// real status, the next page and the body travel inside. Errors are enveloped the same way.

export interface Envelope {
  readonly status_code: number;
  readonly next_page: string | null;
  readonly response: unknown;
}

export const envelope = (status: number, nextPage: string | null, response: unknown): Envelope => ({
  status_code: status,
  next_page: nextPage,
  response: response ?? null,
});

/**
 * The JSONP body. The leading comment stops a response that starts with attacker-chosen
 * bytes from being read as another file type (the Rosetta Flash attack); U+2028/U+2029 are
 * escaped because older JavaScript engines end a string literal at them.
 */
export const jsonpBody = (callback: string, json: string): string =>
  `/**/${callback}(${json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')});`;
