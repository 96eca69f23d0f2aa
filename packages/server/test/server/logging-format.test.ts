import { expect } from 'chai';
import fc from 'fast-check';
import { jsonLogger } from '../../src/index.js';

// The logger builds its lines by hand for speed; they must be exactly what the plain way
// gives: JSON.stringify of time, level, message and the fields, secret-looking ones redacted.

const secretKey = /pass(word)?|token|secret|authorization|cookie/i;
const reference = (time: string, level: string, message: string, fields: Record<string, unknown>): string =>
  `${JSON.stringify({ time, level, message, ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, secretKey.test(k) ? '[redacted]' : v])) })}\n`;

const fieldName = fc.oneof(
  fc.constantFrom(
    'request_id',
    'method',
    'path',
    'query',
    'status',
    'duration_ms',
    'user_id',
    'client_ip',
    'detail',
    'stack',
  ),
  fc.constantFrom(
    'password',
    'access_token',
    'Authorization',
    'cookie',
    'client_secret',
    'message',
    'time',
    'level',
    '0',
    '12',
    '__proto__x',
  ),
  fc.string(),
);
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  fc.string({ unit: 'binary' }),
);

describe('server: JSON log lines, as built', () => {
  it('equal JSON.stringify of the scrubbed fields, whatever the fields', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('info', 'error'),
        fc.string({ unit: 'binary' }),
        fc.dictionary(fieldName, fieldValue),
        (level, message, fields) => {
          const lines: string[] = [];
          const logger = jsonLogger({
            write: (line) => {
              lines.push(line);
            },
          });
          if (level === 'info') logger.info(message, fields);
          else logger.error(message, fields);
          expect(lines).to.have.length(1);
          const time = (JSON.parse(lines[0]!) as { time: string }).time;
          expect(lines[0]).to.equal(reference(time, level, message, fields));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('redacts a secret field even when its value is left out of JSON (undefined)', () => {
    const lines: string[] = [];
    jsonLogger({
      write: (line) => {
        lines.push(line);
      },
    }).info('x', { token: undefined, other: undefined });
    expect(JSON.parse(lines[0]!)).to.deep.include({ token: '[redacted]' });
    expect(JSON.parse(lines[0]!)).to.not.have.property('other');
  });
});
