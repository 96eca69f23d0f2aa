// Link check of the documentation: every relative Markdown link in README.md and docs/*.md
// must name a file that exists and, after `#`, a heading of that file (GitHub's anchors).
// Then a self-test: a planted broken file link and a planted broken heading link must both be
// reported, so a check that stops catching them fails the test command too.
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Text outside fenced code blocks and inline code spans (links there are examples, not links). */
const prose = (text) =>
  text
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join('\n')
    .replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
export const anchors = (text) => {
  const seen = new Map();
  const out = new Set();
  const body = text
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join('\n');
  for (const m of body.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
};

/** The broken links of one Markdown file: [{ file, link, why }]. */
export const brokenLinks = (file) => {
  const text = readFileSync(file, 'utf8');
  const broken = [];
  for (const m of prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const link = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: ...: not checked here
    const [path, hash] = link.split('#', 2);
    const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(target)) {
      broken.push({ file, link, why: 'no such file' });
      continue;
    }
    if (hash === undefined || hash === '') continue;
    if (statSync(target).isDirectory() || !target.endsWith('.md')) {
      broken.push({ file, link, why: 'a heading link to something that is not a Markdown file' });
      continue;
    }
    if (!anchors(readFileSync(target, 'utf8')).has(decodeURIComponent(hash).toLowerCase())) {
      broken.push({ file, link, why: `no heading #${hash} in ${relative(root, target)}` });
    }
  }
  return broken;
};

export const documents = (dir) => [
  join(dir, 'README.md'),
  ...(existsSync(join(dir, 'docs'))
    ? readdirSync(join(dir, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => join(dir, 'docs', f))
    : []),
];

const check = (dir) => documents(dir).flatMap(brokenLinks);

const broken = check(root);
for (const b of broken) console.error(`${relative(root, b.file)}: broken link ${b.link} (${b.why})`);
if (broken.length > 0) {
  console.error(`link check: FAILED (${broken.length} broken link${broken.length === 1 ? '' : 's'})`);
  process.exit(1);
}

// Self-test on a scratch tree: one good link of each kind, and one bad of each kind.
const scratch = mkdtempSync(join(tmpdir(), 'link-check-'));
try {
  mkdirSync(join(scratch, 'docs'));
  writeFileSync(
    join(scratch, 'README.md'),
    '# Title\n\n## Two commands\n\nSee [a](docs/a.md#the-rule-lives-here), [b](#two-commands), [c](docs/missing.md), [d](docs/a.md#no-such-heading).\n\n`[e](not/a/link.md)`\n',
  );
  writeFileSync(join(scratch, 'docs', 'a.md'), '# A\n\n## The rule: lives here!\n');
  const found = check(scratch).map((b) => b.link);
  const expected = ['docs/missing.md', 'docs/a.md#no-such-heading'];
  if (JSON.stringify(found) !== JSON.stringify(expected)) {
    console.error(
      `link check self-test: FAILED (reported ${JSON.stringify(found)}, expected ${JSON.stringify(expected)})`,
    );
    process.exit(1);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`link check: ${documents(root).length} documents, no broken link (self-test: both planted links caught)`);
