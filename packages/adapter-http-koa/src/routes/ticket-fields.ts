import { operationNeeds as n, repeatAccess as r, type Needs } from '@support/application';
import type { TicketFieldDefinition, TicketFieldId } from '@support/domain';
import { ifMatchOption } from '../conventions/conditional-requests.js';
import { mediaTypes, readBody } from '../conventions/request-body.js';
import { TicketFieldCreateBody, TicketFieldPatchBody } from '../decode/bodies.js';
import { decodeBody } from '../decode/object-codec.js';
import { decodePage } from '../decode/page.js';
import { examples } from '../openapi/examples.js';
import { ref } from '../openapi/json.js';
import { curlOn, idErrors, listOf, roles, writable, writeErrors, type Declaration } from '../openapi/operation.js';
import { created, ok } from '../reply.js';
import { ticketFieldRepresentation } from '../representations/ticket-field.js';
import { ticketFieldNames } from '../resources/ticket-fields.js';
import type { RouteContext, Services } from '../state.js';
import type { DeclaringRouter } from './declare.js';
import { actorOf, idParam, pageInfo, unwrap } from './support.js';
import { writeRoute } from './write-route.js';

// Custom field definitions (contract §10, docs/custom-fields.md): admins define them; agents
// read all, customers the customer_visible ones.

export const ticketFieldRoutes = (api: DeclaringRouter, { app, urls }: Services): void => {
  const curl = curlOn(urls.origin);
  const ex = examples(urls.origin);
  const readers = roles('agents and admins read every field, customers the customer_visible ones (another is 404).');
  const admin = roles('admin (agents and customers: 403).');
  const represent = (d: TicketFieldDefinition): Record<string, unknown> => ticketFieldRepresentation(urls, d);
  const fieldId = (ctx: RouteContext): TicketFieldId => idParam(ctx, 'fieldId', 'ticket field') as TicketFieldId;
  /** The declaration of an operation on one field (GET, PATCH, DELETE). */
  const one = (
    method: 'get' | 'patch' | 'delete',
    id: string,
    summary: string,
    description: string,
    needs: Needs,
  ): Declaration => ({
    id,
    tag: 'Ticket fields',
    summary,
    description,
    access: 'token',
    needs,
    params: ['FieldId'],
    success: {
      status: 200,
      shape: method === 'get' ? 'single' : 'written',
      description: method === 'delete' ? 'The field as it was.' : 'The field.',
      schema: ref('TicketField'),
      example: ex.ticketField(),
    },
    errors: method === 'get' ? idErrors : [...idErrors, 'PreconditionFailed'],
    curl: curl(method.toUpperCase(), '/v1/ticket_fields/4'),
  });

  api.get(
    '/v1/ticket_fields',
    {
      id: 'listTicketFields',
      tag: 'Ticket fields',
      summary: 'List ticket fields',
      description: `A bare JSON array, paged, by position then id.${readers}`,
      access: 'token',
      needs: n.ticketFields.list,
      params: ['Page', 'PerPage'],
      success: {
        status: 200,
        shape: 'list',
        description: 'One page of ticket fields.',
        schema: listOf('TicketField'),
        example: [ex.ticketField()],
      },
      errors: [],
      curl: curl('GET', '/v1/ticket_fields'),
    },
    async (ctx) => {
      const l = unwrap(await app.ticketFields.list(actorOf(ctx), decodePage(ctx.query)));
      ctx.state.reply = ok(l.items.map(represent), { page: pageInfo(l) });
    },
  );

  api.post(
    '/v1/ticket_fields',
    {
      id: 'createTicketField',
      tag: 'Ticket fields',
      summary: 'Define a ticket field',
      description:
        'A typed field every ticket then carries in custom_fields (null until set), filterable (cf.<key>=...) and sortable (sort=cf.<key>). A key in use, a pattern RE2 refuses, options on a type without them, the 101st field: 422. Appends ticket_field.created to the feed.' +
        admin,
      access: 'token',
      needs: n.ticketFields.create,
      keyed: { access: r.createTicketField },
      body: { schema: 'TicketFieldCreate', example: ex.ticketFieldCreate },
      success: writable('created', 'TicketField', ex.ticketField()),
      errors: writeErrors,
      curl: curl('POST', '/v1/ticket_fields', ex.ticketFieldCreate),
    },
    async (ctx) => {
      const actor = actorOf(ctx);
      const body = await readBody(ctx, [mediaTypes.json]);
      const d = unwrap(await app.ticketFields.create(actor, decodeBody(TicketFieldCreateBody, body)), ticketFieldNames);
      ctx.state.reply = created(represent(d), urls.ticketField(d.id), d.updatedAt);
    },
  );

  api.get(
    '/v1/ticket_fields/:fieldId',
    one('get', 'getTicketField', 'Read a ticket field', `One field.${readers}`, n.ticketFields.get),
    async (ctx) => {
      const d = unwrap(await app.ticketFields.get(actorOf(ctx), fieldId(ctx)));
      ctx.state.reply = ok(represent(d), { lastModified: d.updatedAt });
    },
  );

  api.patch(
    '/v1/ticket_fields/:fieldId',
    {
      ...one(
        'patch',
        'patchTicketField',
        'Change a ticket field',
        'title, description, options, required, customer_visible, customer_editable and position may change; key, type and pattern may not (422). Removing an option a ticket still holds is 409, naming how many tickets hold it. Appends ticket_field.updated.' +
          admin,
        n.ticketFields.patch,
      ),
      body: { schema: 'TicketFieldPatch', example: ex.ticketFieldPatch, mergePatch: true },
      errors: [...idErrors, 'PreconditionFailed', 'Conflict', ...writeErrors],
      curl: curl('PATCH', '/v1/ticket_fields/4', ex.ticketFieldPatch),
    },
    writeRoute('patch', {
      target: fieldId,
      codec: TicketFieldPatchBody,
      run: (actor, id, body, options) => app.ticketFields.patch(actor, id, body, options),
      represent,
      lastModified: (d: TicketFieldDefinition) => d.updatedAt,
      names: ticketFieldNames,
    }),
  );

  api.delete(
    '/v1/ticket_fields/:fieldId',
    one(
      'delete',
      'deleteTicketField',
      'Delete a ticket field',
      "Its values leave every ticket's representation at once; the tickets themselves (updated_at, the feed) are untouched: the field changed, not the tickets. A field defined again with the same key starts empty. Appends ticket_field.deleted." +
        admin,
      n.ticketFields.delete,
    ),
    async (ctx) => {
      const d = unwrap(
        await app.ticketFields.delete(actorOf(ctx), fieldId(ctx), ifMatchOption(ctx.get('If-Match'), represent)),
      );
      ctx.state.reply = ok(represent(d), { lastModified: d.updatedAt });
    },
  );
};
