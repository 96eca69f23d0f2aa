import { expect } from 'chai';
import { laneRoutesOf, type LaneRoutes } from '../src/pipeline/lane.js';
import { routerWithoutApp } from '../src/routes/router.js';

// The short lane (pipeline/lane.ts) must take a request only where the router would run the
// very same handler and nothing else, with the same path parameters. These tests build the
// real router (no application behind it: no handler runs) and hold every lane route against it.

const built = (): { lane: LaneRoutes; router: ReturnType<typeof routerWithoutApp> } => {
  const router = routerWithoutApp();
  return { lane: laneRoutesOf(router), router };
};

/** The route's path with every :param replaced by `id`. */
const pathWith = (path: string, id: string): string => path.replace(/:[A-Za-z]+/g, id);

const ids = ['1', '42', '007', '0', '9007199254740991', '99999999999999999999'];
const queries = ['', '?', '?fields=id,subject', '?pretty=true&envelope=true', '?access_token=x', '?%FF=1'];

describe('short lane', () => {
  it('serves every GET the router answers with one handler of its own, GET and HEAD', () => {
    const { lane } = built();
    expect(lane.routes.map((r) => r.path)).to.have.members([
      '/v1/tickets',
      '/v1/tickets/:ticketId',
      '/v1/ticket_fields',
      '/v1/ticket_fields/:fieldId',
      '/v1/tickets/:ticketId/messages',
      '/v1/tickets/:ticketId/messages/:messageId',
      '/v1/tickets/:ticketId/attachments',
      '/v1/attachments/:attachmentId',
      '/v1/attachments/:attachmentId/content',
      '/v1/users',
      '/v1/users/:userId',
      '/v1/users/:userId/tokens',
      '/v1/users/:userId/tokens/:tokenId',
      '/v1/groups',
      '/v1/groups/:groupId',
      '/v1/groups/:groupId/users',
      '/v1/events',
      '/v1/webhooks',
      '/v1/webhooks/:webhookId',
      '/v1/webhooks/:webhookId/deliveries',
      '/v1/deprecations',
      '/v1/openapi',
    ]);
    expect(lane.match('GET', '/v1/tickets/12/messages/3?pretty=true')?.params).to.deep.equal({
      ticketId: '12',
      messageId: '3',
    });
    expect(lane.match('GET', '/v1/tickets/12')?.params).to.deep.equal({ ticketId: '12' });
    expect(lane.match('HEAD', '/v1/tickets/12?fields=id')?.params).to.deep.equal({ ticketId: '12' });
    expect(lane.match('GET', '/v1/tickets?per_page=30')?.route.path).to.equal('/v1/tickets');
  });

  it('where the router runs exactly one layer, the same handler, with the same parameters', () => {
    const { lane, router } = built();
    for (const route of lane.routes) {
      for (const id of ids) {
        for (const query of queries) {
          const url = pathWith(route.path, id) + query;
          for (const method of ['GET', 'HEAD']) {
            const found = lane.match(method, url);
            expect(found, `${method} ${url}`).to.not.equal(null);
            const matched = router.match(url.split('?')[0] as string, method);
            expect(matched.route, `${method} ${url}`).to.equal(true);
            expect(matched.pathAndMethod, `${method} ${url}`).to.have.length(1);
            const layer = matched.pathAndMethod[0];
            expect(layer?.stack, `${method} ${url}`).to.deep.equal([route.handler]);
            const params = layer?.params(url.split('?')[0] as string, layer.captures(url.split('?')[0] as string), {});
            expect(params, `${method} ${url}`).to.deep.equal(found?.params);
          }
        }
      }
    }
  });

  it('leaves every other request to Koa', () => {
    const { lane } = built();
    const others: [string, string][] = [
      ['POST', '/v1/tickets'],
      ['PUT', '/v1/tickets/1'],
      ['PATCH', '/v1/tickets/1'],
      ['DELETE', '/v1/tickets/1'],
      ['OPTIONS', '/v1/tickets/1'],
      ['get', '/v1/tickets/1'],
      // The router matches these too, with rules of its own or of negotiate (suffix, decoding, trailing slash).
      ['GET', '/v1/tickets/1/'],
      ['GET', '/v1/tickets/1.json'],
      ['GET', '/v1/tickets.json'],
      ['GET', '/v1/tickets/'],
      ['GET', '/v1/tickets/%31'],
      ['GET', '/v1/tickets/recently_closed'],
      ['GET', '/v1/tickets/abc'],
      ['GET', '/v1/tickets/1/messages/'],
      // The router matches these as two layers (/v1/users/me and /v1/users/:userId), or runs two handlers.
      ['GET', '/v1/users/me'],
      ['GET', '/v1/users/me/tokens'],
      ['GET', '/v1/openapi.json'],
      ['GET', '/healthz'],
      ['GET', '/docs'],
      ['GET', '/v1/events/'],
      ['GET', '/v1/events.json'],
      ['GET', '/V1/tickets/1'],
      ['GET', '/v1/Tickets'],
      ['GET', '//v1/tickets/1'],
      ['GET', 'https://localhost/v1/tickets/1'],
      ['GET', '/v1/tickets/1#x'],
      ['GET', '/v1/ticket/1'],
      ['GET', '/v1/tickets/123456789012345678901'],
    ];
    for (const [method, url] of others) expect(lane.match(method, url), `${method} ${url}`).to.equal(null);
  });
});
