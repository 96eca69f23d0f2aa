// JSON is indented with 2 spaces by default (readable with plain curl) and compact with
// pretty=false. The compact form is also what the ETag is computed from.

export const compactJson = (value: unknown): string => JSON.stringify(value);

export const prettyJson = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
