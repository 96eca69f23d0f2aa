import type { PersonalTokenRecord } from '@support/application';
import { representation } from '../resources/field-table.js';
import { personalTokenTable } from '../resources/personal-tokens.js';
import type { Urls } from './urls.js';

// A personal access token as the API shows it (contract §8.1): the fields of its table
// (resources/personal-tokens.ts), never its secret, except in the answer that made it (`token`).

const full = representation(personalTokenTable);

export const personalTokenRepresentation = (
  urls: Urls,
  record: PersonalTokenRecord,
  token?: string,
): Record<string, unknown> => ({ ...full({ record, urls }), ...(token === undefined ? {} : { token }) });
