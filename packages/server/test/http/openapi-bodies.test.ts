import { defaultOpenApiDocument, requestBodyCodecs, type RequestBodyCodec } from '@support/adapter-http-koa';
import type { FieldError } from '@support/domain';
import { expect } from 'chai';
import { bodyDisagreements } from '../support/body-probes.js';

// The request-body schemas of the document and the io-ts codecs that decode the bodies are
// two descriptions of one thing; these tests fail when they disagree on any body.

type Json = Record<string, unknown>;

const schemasOf = (document: Json): Record<string, Json> =>
  (document.components as { schemas: Record<string, Json> }).schemas;

const pair = (codec: string): RequestBodyCodec => {
  const found = requestBodyCodecs.find((c) => c.codec === codec);
  if (found === undefined) throw new Error(`no codec ${codec}`);
  return found;
};

describe('OpenAPI: the request-body schemas agree with the codecs', () => {
  const document = defaultOpenApiDocument();

  it('pairs every JSON request body the document describes with a codec (the token endpoints read theirs by hand)', () => {
    const described = new Set<string>();
    for (const item of Object.values(
      document.paths as Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>
      >,
    )) {
      for (const operation of Object.values(item)) {
        const ref = operation.requestBody?.content['application/json']?.schema.$ref;
        if (ref !== undefined) described.add(ref.replace('#/components/schemas/', ''));
      }
    }
    expect([...described].filter((s) => s !== 'TokenRequest' && s !== 'RevokeRequest').sort()).to.deep.equal(
      [...new Set(requestBodyCodecs.map((c) => c.schema))].sort(),
    );
  });

  for (const codec of requestBodyCodecs) {
    it(`${codec.schema} describes exactly what ${codec.codec} accepts`, () => {
      expect(bodyDisagreements(document, codec, requestBodyCodecs)).to.deep.equal([]);
    });
  }
});

describe('OpenAPI: the body check catches drift', () => {
  const documentDrifts: {
    what: string;
    codec: string;
    drift: (schemas: Record<string, Json>) => void;
    reported: RegExp;
  }[] = [
    {
      what: 'a required field made optional',
      codec: 'TicketCreateBody',
      drift: (s) => {
        s.TicketCreate!.required = [];
      },
      reported: /required fields differ: the document requires \[\], the codec \[subject\]/,
    },
    {
      what: 'an optional field made required',
      codec: 'UserReplaceBody',
      drift: (s) => {
        (s.UserReplace!.required as string[]).push('password');
      },
      reported: /required fields differ: the document requires \[email, name, password\]/,
    },
    {
      what: 'another type',
      codec: 'GroupCreateBody',
      drift: (s) => {
        (s.GroupWrite!.properties as Json).description = { type: 'integer' };
      },
      reported: /"description":1}: the document accepts it, the codec refuses it/,
    },
    {
      what: 'an enum value the codec does not know',
      codec: 'TicketReplaceBody',
      drift: (s) => {
        ((s.TicketReplace!.properties as Record<string, Json>).priority!.enum as string[]).push('critical');
      },
      reported: /"priority":"critical"}: the document accepts it, the codec refuses it/,
    },
    {
      what: 'a string bound raised',
      codec: 'TicketCreateBody',
      drift: (s) => {
        (s.TicketCreate!.properties as Record<string, Json>).subject!.maxLength = 300;
      },
      reported: /"subject":"xxxxxx…\(300 characters\)"}: the document accepts it, the codec refuses it/,
    },
    {
      what: 'a list bound raised',
      codec: 'UserCreateBody',
      drift: (s) => {
        (s.UserCreate!.properties as Record<string, Json>).group_ids!.maxItems = 101;
      },
      reported: /"group_ids":"\[1, …\(101 items\)\]"}: the document accepts it, the codec refuses it/,
    },
    {
      what: 'null allowed where the merge patch refuses it',
      codec: 'MessagePatchBody',
      drift: (s) => {
        const properties = s.MessagePatch!.properties as Record<string, Json>;
        properties.body = { oneOf: [properties.body, { type: 'null' }] };
      },
      reported: /{"body":null}: the document accepts it, the codec refuses it/,
    },
    {
      what: 'null refused where the merge patch resets to the default',
      codec: 'TicketPatchBody',
      drift: (s) => {
        const properties = s.TicketPatch!.properties as Record<string, { oneOf: Json[] }>;
        properties.summary = properties.summary!.oneOf[0] as { oneOf: Json[] };
      },
      reported: /{"summary":null}: the document refuses it, the codec accepts it/,
    },
    {
      what: 'a read-only mark dropped',
      codec: 'TicketCreateBody',
      drift: (s) => {
        delete (s.Ticket!.properties as Record<string, Json>).url!.readOnly;
      },
      reported: /the document does not mark Ticket.url read-only; the codec refuses it as read_only/,
    },
    {
      what: 'a field the codec does not know',
      codec: 'GroupPatchBody',
      drift: (s) => {
        (s.GroupPatch!.properties as Json).colour = { type: 'string' };
      },
      reported: /{"colour":"x"}: the document accepts it, the codec refuses it \(colour: unknown_field\)/,
    },
  ];
  for (const { what, codec, drift, reported } of documentDrifts) {
    it(`in the document: ${what}`, () => {
      const drifted = structuredClone(defaultOpenApiDocument());
      drift(schemasOf(drifted));
      expect(bodyDisagreements(drifted, pair(codec), requestBodyCodecs).join('\n')).to.match(reported);
    });
  }

  const codecDrifts: {
    what: string;
    codec: string;
    errorsOf: (original: RequestBodyCodec['errorsOf']) => RequestBodyCodec['errorsOf'];
    reported: RegExp;
  }[] = [
    {
      what: 'a bound dropped',
      codec: 'TicketCreateBody',
      errorsOf: (original) => (body) =>
        original(body).filter((e) => !(e.field === 'subject' && e.code === 'invalid_length')),
      reported: /"subject":"xxxxxx…\(201 characters\)"}: the document refuses it, the codec accepts it/,
    },
    {
      what: 'a field made required',
      codec: 'GroupPatchBody',
      errorsOf: (original) => (body) => {
        const required: FieldError[] =
          typeof body === 'object' && body !== null && !Object.hasOwn(body, 'name')
            ? [{ field: 'name', code: 'required', message: 'is required' }]
            : [];
        return [...original(body), ...required];
      },
      reported: /required fields differ: the document requires \[\], the codec \[name\]/,
    },
  ];
  for (const { what, codec, errorsOf, reported } of codecDrifts) {
    it(`in the codec: ${what}`, () => {
      const original = pair(codec);
      const drifted = { ...original, errorsOf: errorsOf(original.errorsOf) };
      expect(bodyDisagreements(defaultOpenApiDocument(), drifted, requestBodyCodecs).join('\n')).to.match(reported);
    });
  }
});
