import { settings } from './config-reference.js';

// The configuration reference (config-reference.ts) as the three texts made from it: the table of
// docs/configuration.md, what `main.js --help` prints, and .env.example.

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The table of docs/configuration.md. */
export const referenceTable = (): string =>
  [
    '| variable | default | allowed values | what it does | store |',
    '|---|---|---|---|---|',
    ...settings.map(
      (s) =>
        `| \`${s.name}\` | ${cell(s.default)} | ${cell(s.allowed)} | ${cell(s.does)}${s.developmentOnly === true ? ' (development and tests only: warned at start)' : ''} | ${s.store} |`,
    ),
  ].join('\n');

/** What `main.js --help` prints. */
export const helpText = (): string =>
  [
    'Support-ticket service: a JSON-over-HTTPS API.',
    '',
    'Usage: node packages/server/dist/src/main.js      (build first: npx -y pnpm@10 build)',
    '',
    'Settings are environment variables (docs/configuration.md):',
    '',
    ...settings.flatMap((s) => [
      `  ${s.name}${s.developmentOnly === true ? '   [development and tests only]' : ''}`,
      `      ${s.does}`,
      `      default: ${s.default}; allowed: ${s.allowed}; store: ${s.store}`,
    ]),
    '',
    'Stops cleanly on SIGTERM or SIGINT (exit 0). Logs: JSON lines on stdout; the start banner on stderr.',
    '',
  ].join('\n');

/** The text of .env.example: every variable, commented out at its default. */
export const envExample = (): string =>
  [
    '# Every setting of the support-ticket service, at its default (docs/configuration.md).',
    '# Copy to .env, uncomment what you change, and start with it loaded, e.g.',
    '#   node --env-file=.env packages/server/dist/src/main.js',
    '# (or EnvironmentFile=.env in a systemd unit). Written by scripts/config-reference.mjs.',
    ...settings.flatMap((s) => {
      const value = s.default.startsWith('none') || s.default.includes('<') ? '' : (s.default.split(' ')[0] ?? '');
      return [
        '',
        `# ${s.does}; ${s.allowed}${s.developmentOnly === true ? '; development and tests only' : ''}${value === '' ? `; default: ${s.default}` : ''}`,
        `# ${s.name}=${value}`,
      ];
    }),
    '',
  ].join('\n');
