// Writes the configuration reference's table into docs/configuration.md (between its markers)
// and .env.example, from packages/server/src/config-reference.ts as built (run `tsc -b` first).
// test/server/config-reference.test.ts fails while either differs from the reference.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { referenceTable, envExample } = await import(join(root, 'packages/server/dist/src/config-texts.js'));

const docPath = join(root, 'docs', 'configuration.md');
const start =
  '<!-- the table below is written by scripts/config-reference.mjs from packages/server/src/config-reference.ts -->\n';
const end = '\n<!-- end of the generated table -->';
const doc = readFileSync(docPath, 'utf8');
const a = doc.indexOf(start);
const b = doc.indexOf(end);
if (a < 0 || b < a) {
  console.error(`docs/configuration.md lacks the markers:\n${start}...${end}`);
  process.exit(1);
}
writeFileSync(docPath, doc.slice(0, a + start.length) + referenceTable() + doc.slice(b));
writeFileSync(join(root, '.env.example'), envExample());
console.log('wrote the table of docs/configuration.md and .env.example');
