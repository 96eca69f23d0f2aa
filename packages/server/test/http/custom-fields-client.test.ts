import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { suiteApi } from '../support/suite-api.js';

// Contract §10: a client generated from the served document sees the fields defined now. The
// document is turned into TypeScript by openapi-typescript (what client generators of the
// ecosystem use), and the TypeScript compiler then checks code written against it: a
// dropdown's value is its options' union, so a value outside the options is a type error.

/**
 * The type errors of each snippet, compiled (once, in one module: the declarations are large)
 * after the generated declarations, each snippet in a block of its own.
 */
const typeErrors = (declarations: string, snippets: readonly string[]): string[][] => {
  const name = 'client.ts';
  const starts: number[] = [];
  let text = `${declarations}\ntype Fields = components['schemas']['CustomFields'];\n`;
  for (const snippet of snippets) {
    starts.push(text.length);
    text += `{\n${snippet}\n}\n`;
  }
  const options: ts.CompilerOptions = { strict: true, noEmit: true, lib: ['lib.es2022.d.ts'], types: [] };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version) =>
    file === name ? ts.createSourceFile(name, text, version) : getSourceFile(file, version);
  host.fileExists = (file) => file === name || ts.sys.fileExists(file);
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram([name], options, host));
  return snippets.map((_, i) =>
    diagnostics
      .filter(
        (d) =>
          d.file?.fileName === name &&
          (d.start ?? 0) >= (starts[i] ?? 0) &&
          (d.start ?? 0) < (starts[i + 1] ?? text.length),
      )
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  );
};

describe('HTTP: a client generated from the served document types the custom fields (openapi-typescript)', () => {
  const api = suiteApi();
  before(async () => {
    const admin = await api.adminToken();
    const define = await api.post(
      '/v1/ticket_fields',
      { key: 'plan_tier', title: 'Plan', type: 'dropdown', options: [{ value: 'free' }, { value: 'gold' }] },
      { token: admin },
    );
    expect(define.status, define.text).to.equal(201);
    expect(
      (await api.post('/v1/ticket_fields', { key: 'seats', title: 'Seats', type: 'integer' }, { token: admin })).status,
    ).to.equal(201);
  });

  it('types a dropdown as the union of its options, an integer as a number', async function () {
    this.timeout(120_000);
    const document = (await api.get('/v1/openapi.json')).json as Record<string, unknown>;
    const declarations = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
    expect(declarations).to.match(/plan_tier\?: "free" \| "gold" \| null/);
    const [ok, refused, notANumber] = typeErrors(declarations, [
      "const ok: Fields = { plan_tier: 'gold', seats: 3 };",
      "const bad: Fields = { plan_tier: 'platinum' };",
      "const bad: Fields = { seats: 'three' };",
    ]);
    expect(ok).to.deep.equal([]);
    expect(refused?.join('\n')).to.match(/"platinum"/);
    expect(notANumber).to.have.length(1);
  });
});
