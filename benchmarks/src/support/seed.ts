// The one seeding helper: what every benchmark's data is made of, created over HTTPS as a
// client would (the admin's login, users, tickets), so a benchmark's setup goes through the
// same decoding and rules as the requests it measures.
import { expectJson, field, type HttpsClient } from './https-client.js';

export interface UserBody {
  readonly name: string;
  readonly email: string;
  readonly role: 'customer' | 'agent' | 'admin';
  readonly password: string;
}

/** A ticket's creation body (snake_case, as the API takes it); extra fields pass through. */
export type TicketBody = Readonly<Record<string, unknown>> & { readonly subject: string };

/** A password grant: answers the access token. */
export const login = async (http: HttpsClient, username: string, password: string): Promise<string> =>
  field(
    expectJson(
      await http.send({
        method: 'POST',
        path: '/v1/oauth/token',
        body: { grant_type: 'password', username, password },
      }),
      200,
      `logging in as ${username}`,
    ),
    'access_token',
    'string',
  );

/** POST /v1/users as `token`'s holder: answers the new user's id. */
export const createUser = async (http: HttpsClient, token: string, user: UserBody): Promise<number> =>
  field(
    expectJson(await http.send({ method: 'POST', path: '/v1/users', token, body: user }), 201, 'creating a user'),
    'id',
    'number',
  );

/**
 * POST /v1/tickets for each body, `inFlight` at a time (one at a time is slow, a free-for-all
 * would shuffle the ids): answers the ids in the bodies' order.
 */
export const createTickets = async (
  http: HttpsClient,
  token: string,
  bodies: readonly TicketBody[],
  inFlight = 16,
): Promise<number[]> => {
  const ids: number[] = [];
  for (let i = 0; i < bodies.length; i += inFlight) {
    const batch = await Promise.all(
      bodies.slice(i, i + inFlight).map((body) => http.send({ method: 'POST', path: '/v1/tickets', token, body })),
    );
    for (const a of batch) ids.push(field(expectJson(a, 201, 'seeding a ticket'), 'id', 'number'));
  }
  return ids;
};
