import { problem } from '../errors/http-problem.js';

// Major version in the path (/v1), minor version in the X-Api-Version request header.
// Absent: the newest. Unknown: 400. Every response names the minor version it was served as.

export interface ApiVersions {
  readonly supported: readonly string[];
  /** Served when the client names none. */
  readonly current: string;
}

export const apiVersions: ApiVersions = { supported: ['1.0', '1.1'], current: '1.1' };
export const apiVersionHeader = 'X-Api-Version';

/** The minor version to serve for the header's value (empty: not sent). */
export const negotiateVersion = (requested: string, versions: ApiVersions): string => {
  const v = requested.trim();
  if (v === '') return versions.current;
  if (versions.supported.includes(v)) return v;
  throw problem(
    'unknownApiVersion',
    `X-Api-Version "${v.slice(0, 32)}" is not served; known versions: ${versions.supported.join(', ')} (omit the header for ${versions.current})`,
  );
};
