import { problem } from '../errors/http-problem.js';

// Major version in the path (/v1), minor version in the X-Api-Version request header.
// Absent: the newest. Unknown (an empty value too): 400. Every response names the minor version it was served as.

export interface ApiVersions {
  readonly supported: readonly string[];
  /** Served when the client names none. */
  readonly current: string;
}

export const apiVersions: ApiVersions = { supported: ['1.0', '1.1'], current: '1.1' };
export const apiVersionHeader = 'X-Api-Version';

/**
 * The minor version to serve for the header's value (undefined: not sent). A header sent empty
 * (or blank) names no known version: 400 like any unknown one, not the newest.
 */
export const negotiateVersion = (requested: string | undefined, versions: ApiVersions): string => {
  if (requested === undefined) return versions.current;
  const v = requested.trim();
  if (versions.supported.includes(v)) return v;
  throw problem(
    'unknownApiVersion',
    `X-Api-Version "${v.slice(0, 32)}" is not served; known versions: ${versions.supported.join(', ')} (omit the header for ${versions.current})`,
  );
};
