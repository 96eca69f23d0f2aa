import type { IncomingMessage } from 'node:http';

/**
 * A request header by its lower-case name, '' when absent: what Koa's ctx.get answers for the
 * headers this API reads (Node joins repeated ones with ", "), without its two delegations per call.
 */
export const requestHeader = (ctx: { readonly req: IncomingMessage }, lowerName: string): string => {
  const v = ctx.req.headers[lowerName];
  return typeof v === 'string' ? v : '';
};
