import type { Message } from '@support/domain';
import { representation } from '../resources/field-table.js';
import { messageTable } from '../resources/messages.js';
import type { Urls } from './urls.js';

// A message as the API shows it: the fields of its table (resources/messages.ts), in order.

const full = representation(messageTable);

export const messageRepresentation = (urls: Urls, message: Message): Record<string, unknown> => full({ message, urls });
