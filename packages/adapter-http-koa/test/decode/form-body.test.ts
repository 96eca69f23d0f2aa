import { expect } from 'chai';
import { maxBodyBytes, maxFormParameters, mediaTypes, parseForm } from '../../src/conventions/request-body.js';
import { HttpProblem } from '../../src/errors/http-problem.js';

// The form bodies of the token endpoints (RFC 6749: application/x-www-form-urlencoded) are
// bodies within the 1 MiB limit like JSON ones, sent before any authentication: contract §11,
// no body holds the event loop for more than ~50 ms. Probed: a form parsed by qs (bracket and
// dot names, a regular-expression replace per `+` and a decoder per escape run) held the loop
// 100-230 ms for one unauthenticated 1 MiB POST /v1/oauth/token (`a[a][a]...=1`, `a=%41+%41+...`).

const form = mediaTypes.form;
const parsed = (text: string): Record<string, unknown> => parseForm(text, form) as Record<string, unknown>;
const refusal = (text: string): HttpProblem => {
  try {
    parseForm(text, form);
  } catch (e) {
    if (e instanceof HttpProblem) return e;
    throw e;
  }
  throw new Error(`accepted ${text.slice(0, 40)}`);
};

/** CPU time of the process, in ms. */
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const room = maxBodyBytes - 64;
const filled = (prefix: string, unit: string, suffix = ''): string =>
  prefix + unit.repeat(Math.floor((room - prefix.length - suffix.length) / unit.length)) + suffix;

/** The costliest forms we know of, each just under 1 MiB. */
const worstForms: Readonly<Record<string, string>> = {
  'a name nested 300,000 times': filled('grant_type=password&a', '[a]', '=1'),
  'a name of opening brackets': filled('a', '[', '=1'),
  'a name of closing brackets': filled('a[', ']', '=1'),
  'a dotted name': filled('a', '.a', '=1'),
  'a value of plus signs': filled('password=', '+'),
  'a value of escapes and plus signs': filled('password=', '%41+'),
  'a value of one escape run': filled('password=', '%41'),
  'a value of lone percent signs': filled('password=', '%'),
  'a value of two-byte escapes': filled('password=', '%C3%A9'),
  'names without values': filled('', 'a&'),
  'empty parameters': filled('grant_type=password', '&'),
  'the same parameter again and again': filled('', 'a=1&'),
  'equals signs': filled('a', '='),
};

describe('form bodies (the token endpoints): read as before, in linear time (contract §11)', function () {
  this.timeout(60_000);

  it('reads + as a space, %XX escapes as UTF-8, and leaves a % without two hex digits as text', () => {
    expect(parsed('grant_type=password&username=ada%40example.com&password=a+b%2Bc%25%zz%4')).to.deep.equal({
      grant_type: 'password',
      username: 'ada@example.com',
      password: 'a b+c%%zz%4',
    });
    expect(parsed('note=%C3%A9t%C3%A9&caf%C3%A9=1&flag&=x&&')).to.deep.equal({ note: 'été', café: '1', flag: '' });
  });

  it('refuses escapes that do not spell UTF-8, in a name or a value (400, as bytes that are not UTF-8)', () => {
    for (const bad of ['note=%FF', 'note=%C3%28', '%FF=x', 'note=%C3', 'note=%ED%A0%80'])
      expect(refusal(bad).kind.status, bad).to.equal(400);
  });

  it('a parameter sent twice is a list, and a name with brackets or a dot is a structure, never a string', () => {
    const twice = parsed('password=a&password=b&password=c');
    expect(twice.password).to.deep.equal(['a', 'b', 'c']);
    for (const nested of ['username[x]=1', 'username[]=1', 'username.x=1']) {
      const value = parsed(`grant_type=password&${nested}`).username;
      expect(typeof value, nested).to.not.equal('string');
      expect(value, nested).to.not.equal(undefined);
    }
    parsed('__proto__[polluted]=1&__proto__.polluted=1&constructor=y');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it(`at most ${maxFormParameters} parameters (400 beyond: qs dropped the rest unread)`, () => {
    expect(
      Object.keys(parsed(Array.from({ length: maxFormParameters }, (_, i) => `p${i}=1`).join('&'))),
    ).to.have.length(maxFormParameters);
    expect(refusal('p=1&'.repeat(maxFormParameters + 1)).kind.status).to.equal(400);
  });

  it('each of the worst forms within 1 MiB is read in under 50 ms of CPU (best of three)', () => {
    const slow: string[] = [];
    for (const [shape, text] of Object.entries(worstForms)) {
      expect(Buffer.byteLength(text), shape).to.be.at.most(maxBodyBytes);
      let best = Infinity;
      for (let attempt = 0; attempt < 3 && best >= 50; attempt++) {
        const started = cpuMs();
        try {
          parseForm(text, form);
        } catch (e) {
          if (!(e instanceof HttpProblem)) throw e;
        }
        best = Math.min(best, cpuMs() - started);
      }
      if (best >= 50) slow.push(`${shape}: ${best.toFixed(0)} ms`);
    }
    expect(slow).to.deep.equal([]);
  });
});
