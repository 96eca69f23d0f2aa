import fc from 'fast-check';
import type { Parameter } from './operations.js';
import { validValue, type SchemaResolver } from './schema-values.js';
import { weighted, type HeaderValue } from './request-parts.js';

// The headers of a generated request (requests.ts): the documented ones, valid or not, and
// Accept, method override and a repeated Idempotency-Key.

export const latin1 = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c < 0x7f || c >= 0xa0)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});

export const httpDates = fc
  .date({ min: new Date(0), max: new Date(Date.UTC(2100, 0)), noInvalidDate: true })
  .chain((d) =>
    fc.constantFrom(
      d.toUTCString(),
      // RFC 850 and asctime, the two obsolete forms a server must still read.
      d.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d{2})(\d{2})/, '$1day, $2-$3-$5'),
      d.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1 $3 $2 $5 $4'),
    ),
  );

export const headerParameter = (
  p: Parameter,
  resolve: SchemaResolver,
): fc.Arbitrary<readonly (readonly [string, HeaderValue])[]> => {
  let valid: fc.Arbitrary<HeaderValue>;
  switch (p.name) {
    case 'If-Match':
    case 'If-None-Match':
      valid = weighted<HeaderValue>(
        [3, fc.constant({ currentEtag: true })],
        [1, fc.constantFrom('*', '"x"', 'W/"x"', '"a", "b"', '"unterminated', 'W/')],
      );
      break;
    case 'If-Modified-Since':
      valid = weighted<HeaderValue>(
        [3, httpDates],
        [1, fc.constantFrom('yesterday', 'Mon, 32 Jan 2026 00:00:00 GMT', '0', 'Thu, 01 Jan 1970 00:00:00 GMT')],
      );
      break;
    case 'Idempotency-Key':
      valid = weighted<HeaderValue>(
        [4, fc.stringMatching(/^[!-~]{1,40}$/)],
        [1, fc.constantFrom('k'.repeat(255), 'k'.repeat(256), '', ' ', 'a b', 'clé')],
        [1, fc.tuple(fc.stringMatching(/^[!-~]{1,8}$/), fc.stringMatching(/^[!-~]{1,8}$/)).map(([a, b]) => [a, b])],
      );
      break;
    case 'Range':
      valid = fc.constantFrom(
        'bytes=0-3',
        'bytes=-5',
        'bytes=2-',
        'bytes=999999-',
        'bytes=0-1,3-4',
        'items=0-1',
        'bytes=5-2',
        'bytes=-0',
        '',
      );
      break;
    case 'If-Range':
      valid = weighted<HeaderValue>([2, fc.constant({ currentEtag: true })], [1, fc.constantFrom('"x"', 'W/"x"', '')]);
      break;
    case 'Content-Disposition':
      valid = fc.constantFrom(
        'attachment; filename="a.txt"',
        "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
        "attachment; filename*=UTF-8''%FF%FE",
        'attachment; filename=""',
        'attachment; filename="../.."',
        'inline',
      );
      break;
    case 'X-Request-Id':
      // Any string a header can carry: the server uses one of 1-128 [A-Za-z0-9._-] and replaces any other.
      valid = weighted<HeaderValue>(
        [3, fc.stringMatching(/^[A-Za-z0-9._-]{1,128}$/)],
        [1, fc.stringMatching(/^[!-~]{0,200}$/)],
      );
      break;
    default:
      valid = validValue(p.schema, resolve).map(String);
  }
  return weighted<readonly (readonly [string, HeaderValue])[]>(
    [6, fc.constant([])],
    [4, valid.map((v) => [[p.name, v]])],
    [1, latin1.map((v) => [[p.name, v]])],
  );
};

export const extraHeaders = (method: string): fc.Arbitrary<readonly (readonly [string, HeaderValue])[]> =>
  fc
    .tuple(
      weighted<readonly [string, HeaderValue][]>(
        [8, fc.constant([])],
        [
          2,
          fc
            .constantFrom(
              'application/json',
              '*/*',
              'application/xml',
              'text/html',
              'application/json;q=0',
              'application/javascript',
              '',
            )
            .map((v) => [['Accept', v]]),
        ],
      ),
      weighted<readonly [string, HeaderValue][]>(
        [6, fc.constant([])],
        [2, fc.constantFrom('gzip', 'identity', 'br', '*;q=0', 'gzip;q=0').map((v) => [['Accept-Encoding', v]])],
      ),
      method === 'POST'
        ? weighted<readonly [string, HeaderValue][]>(
            [8, fc.constant([])],
            [
              1,
              fc
                .constantFrom('PUT', 'PATCH', 'DELETE', 'GET', 'POST', 'FOO', 'put')
                .map((v) => [['X-HTTP-Method-Override', v]]),
            ],
          )
        : fc.constant([]),
    )
    .map(([a, b, c]) => [...a, ...b, ...c]);
