// Writes the served OpenAPI document (default settings) to
// packages/adapter-http-koa/test/fixtures/openapi-before.json: the document as the code
// before the derived document (issue 34) built it, which openapi-equivalence.test.ts holds
// the derived one to. Run after `tsc -b`, on the commit whose document is the reference.
import { writeFileSync } from 'node:fs';
import { defaultOpenApiDocument } from '../packages/adapter-http-koa/dist/src/index.js';

const out = new URL('../packages/adapter-http-koa/test/fixtures/openapi-before.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(defaultOpenApiDocument(), null, 1)}\n`);
console.log(`written ${out.pathname}`);
