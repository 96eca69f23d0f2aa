import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../../src/config.js';
import { developmentSwitches, readByTheEntry, settings } from '../../src/config-reference.js';
import { envExample, helpText, referenceTable } from '../../src/config-texts.js';
import { mainJs } from './child.js';

// The configuration reference (src/config-reference.ts) against the decoder (src/config.ts),
// the process entry, `main.js --help` and docs/configuration.md (issue 20): a variable cannot
// be read without its line, nor documented without being read.

/** dist/test/server → the repository's root. */
const root = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The names configFromEnv reads from `env` (every lookup, whether set or not). */
const namesRead = (env: Readonly<Record<string, string>>): Set<string> => {
  const read = new Set<string>();
  const spy = new Proxy(env, {
    get: (target, name) => {
      if (typeof name === 'string') read.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  configFromEnv(spy);
  return read;
};

/** Every variable the decoder reads, over the environments that reach each branch of it. */
const decoderNames = (): Set<string> => {
  const all = new Set<string>();
  const envs: readonly Readonly<Record<string, string>>[] = [
    {},
    { STORE: 'mongo', MONGO_URL: 'mongodb://127.0.0.1:1/x' },
    { TLS_CERT_FILE: '/c.pem', TLS_KEY_FILE: '/k.pem' },
    ...settings
      .map((s) => ({ [s.name]: s.default.split(' ')[0] ?? '' }))
      .filter((env) => {
        try {
          configFromEnv(env);
          return true;
        } catch {
          return false;
        }
      }),
  ];
  for (const env of envs) for (const name of namesRead(env)) all.add(name);
  return all;
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    if (statSync(path).isDirectory()) return f === 'node_modules' || f === 'dist' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });

const names = settings.map((s) => s.name);

describe('server: the configuration reference (docs/configuration.md, --help)', function () {
  this.timeout(30_000);

  it('has a line for every variable the decoder reads', () => {
    const missing = [...decoderNames()].filter((n) => !names.includes(n));
    expect(
      missing,
      'add a line for each to packages/server/src/config-reference.ts, then run `node scripts/config-reference.mjs`',
    ).to.deep.equal([]);
  });

  it('documents no variable that nothing reads', () => {
    const read = decoderNames();
    const unread = names.filter((n) => !read.has(n) && !readByTheEntry.includes(n));
    expect(unread).to.deep.equal([]);
  });

  it('has a line for every variable any package reads from process.env outside the decoder', () => {
    const found = new Set<string>();
    for (const pkg of readdirSync(join(root, 'packages'))) {
      const src = join(root, 'packages', pkg, 'src');
      if (!statSync(join(root, 'packages', pkg)).isDirectory()) continue;
      let files: string[] = [];
      try {
        files = sourceFiles(src);
      } catch {
        continue;
      }
      for (const file of files) {
        for (const m of readFileSync(file, 'utf8').matchAll(
          /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[\s*'([A-Z][A-Z0-9_]*)'\s*\])/g,
        ))
          found.add(m[1] ?? m[2] ?? '');
      }
    }
    expect(found.size, 'the scan found the entry point’s own reads').to.be.at.least(1);
    expect([...found].filter((n) => !names.includes(n))).to.deep.equal([]);
    expect(
      [...found].filter((n) => !readByTheEntry.includes(n)),
      'readByTheEntry lists them',
    ).to.deep.equal([]);
  });

  it('gives each default as the decoder applies it', () => {
    // Defaults that are a value (not "none..."): setting the variable to it changes nothing.
    // Left to the adapters' own defaults, the decoder keeps these unset, so they are compared as documented numbers only.
    const adapterDefaults = new Set([
      'RESPONSE_CACHE_BYTES',
      'MONGO_SERVER_SELECTION_TIMEOUT_MS',
      'MONGO_OPERATION_TIMEOUT_MS',
    ]);
    const base = configFromEnv({});
    for (const s of settings) {
      const value = s.default.split(' ')[0] ?? '';
      if (s.default.startsWith('none') || value.includes('<') || adapterDefaults.has(s.name)) continue;
      expect(configFromEnv({ [s.name]: value }), `${s.name}=${value}`).to.deep.equal(base);
    }
  });

  it('is the table of docs/configuration.md, word for word', () => {
    const doc = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    const start =
      '<!-- the table below is written by scripts/config-reference.mjs from packages/server/src/config-reference.ts -->\n';
    const end = '\n<!-- end of the generated table -->';
    expect(doc).to.include(start);
    const table = doc.slice(doc.indexOf(start) + start.length, doc.indexOf(end));
    expect(
      table,
      'docs/configuration.md is out of date: run `npx -y pnpm@10 build && node scripts/config-reference.mjs`',
    ).to.equal(referenceTable());
    for (const name of names) expect(table).to.include(`| \`${name}\` |`);
  });

  it('is what `node packages/server/dist/src/main.js --help` prints, and it exits 0 without starting', () => {
    const run = spawnSync(process.execPath, [mainJs, '--help'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 20_000,
    });
    expect(run.status, run.stderr).to.equal(0);
    expect(run.stdout).to.equal(helpText());
    for (const s of settings) {
      expect(run.stdout).to.include(`  ${s.name}`);
      expect(run.stdout).to.include(`default: ${s.default}; allowed: ${s.allowed}`);
    }
    expect(run.stderr).to.equal('');
  });

  it('names the development-only switches a start sets, for its one warning line', () => {
    expect(developmentSwitches({})).to.deep.equal([]);
    expect(developmentSwitches({ WEBHOOK_ALLOW_PRIVATE: 'false', MONGO_ALLOW_STANDALONE: '0' })).to.deep.equal([]);
    expect(developmentSwitches({ WEBHOOK_ALLOW_PRIVATE: 'true', PORT: '1' })).to.deep.equal([
      'WEBHOOK_ALLOW_PRIVATE=true',
    ]);
    expect(developmentSwitches({ WEBHOOK_ALLOW_PRIVATE: 'yes', MONGO_ALLOW_STANDALONE: 'true' })).to.deep.equal([
      'MONGO_ALLOW_STANDALONE=true',
      'WEBHOOK_ALLOW_PRIVATE=yes',
    ]);
  });

  it('has an .env.example that names every variable, each commented out at its default', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    expect(example, '.env.example is out of date: run `node scripts/config-reference.mjs`').to.equal(envExample());
    for (const name of names) expect(example, name).to.match(new RegExp(`^# ${name}=`, 'm'));
  });
});
