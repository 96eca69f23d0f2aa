import { expect } from 'chai';
import { jsonLogger } from '../../src/index.js';

const capture = () => {
  const lines: string[] = [];
  return {
    lines,
    logger: jsonLogger({
      write: (line) => {
        lines.push(line);
      },
    }),
  };
};

describe('server: JSON log lines', () => {
  it('writes the lines at LOG_LEVEL and above only (debug < info < warn < error)', () => {
    const levels = ['debug', 'info', 'warn', 'error'] as const;
    for (const least of levels) {
      const lines: string[] = [];
      const logger = jsonLogger(
        {
          write: (line) => {
            lines.push(line);
          },
        },
        least,
      );
      for (const level of levels) logger[level](`a ${level} line`, { n: 1 });
      const written = lines.map((l) => (JSON.parse(l) as { level: string }).level);
      expect(written, least).to.deep.equal(levels.slice(levels.indexOf(least)));
    }
    // The default is info.
    const { lines, logger } = capture();
    logger.debug('not written');
    logger.info('written');
    expect(lines.map((l) => (JSON.parse(l) as { message: string }).message)).to.deep.equal(['written']);
  });

  it('writes one JSON object per line with time, level, message and the fields', () => {
    const { lines, logger } = capture();
    logger.info('request', { method: 'GET', path: '/v1/tickets', status: 200 });
    logger.error('store unavailable', { store: 'mongo' });
    expect(lines).to.have.length(2);
    for (const line of lines) {
      expect(line.endsWith('\n')).to.equal(true);
      expect(line.slice(0, -1)).not.to.include('\n');
    }
    const [info, error] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(info).to.include({ level: 'info', message: 'request', method: 'GET', path: '/v1/tickets', status: 200 });
    expect(error).to.include({ level: 'error', message: 'store unavailable', store: 'mongo' });
    expect(new Date(String(info?.time)).toISOString()).to.equal(info?.time);
  });

  it('keeps a message with line breaks on one line', () => {
    const { lines, logger } = capture();
    logger.error('failed\n  at somewhere (file.js:1:1)', { detail: 'a\nb' });
    expect(lines).to.have.length(1);
    expect(lines[0]!.slice(0, -1)).not.to.include('\n');
  });

  it('redacts every field whose name suggests a secret', () => {
    const { lines, logger } = capture();
    const secrets = {
      password: 'hunter2-password',
      admin_password: 'admin-secret-1',
      passwd: 'passwd-value',
      access_token: 'access-token-value',
      refresh_token: 'refresh-token-value',
      token: 'bare-token-value',
      client_secret: 'client-secret-value',
      authorization: 'Bearer auth-header-value',
      Authorization: 'Basic auth-basic-value',
      cookie: 'session=cookie-value',
    };
    logger.info('login', { ...secrets, email: 'ada@example.com' });
    const line = lines[0]!;
    for (const value of Object.values(secrets)) expect(line).not.to.include(value);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    for (const key of Object.keys(secrets)) expect(parsed[key], key).to.equal('[redacted]');
    expect(parsed.email).to.equal('ada@example.com');
  });
});
