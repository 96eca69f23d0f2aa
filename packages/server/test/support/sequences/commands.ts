import fc from 'fast-check';
import { command, type Cmd } from './command-kit.js';
import {
  createGroup,
  createUser,
  deleteGroup,
  deleteUser,
  groupUsers,
  patchGroup,
  patchUser,
} from './people-commands.js';
import { createTicket, deleteTicket, listTickets, patchTicket } from './ticket-commands.js';
import { addMessage, deleteMessage, listMessages, patchMessage } from './message-commands.js';

// The steps of a sequence (fast-check model-based commands): create, update, delete and read
// tickets, messages, users and groups over HTTPS, each predicting from the model what the
// service must answer and which changes it makes, then checking all of check.ts. Commands
// are generated before the model exists, so they name what they act on by a number that
// picks among the resources of the moment. The clock moves only by its own step, so two
// writes may share an instant, as on a busy server.

const advance = fc.oneof(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 1, max: 10 * 86_400_000 })).map((ms) =>
  command(
    `advance(${ms})`,
    () => true,
    (m, r) => {
      m.now += ms;
      r.api.clock.advance(ms);
      return Promise.resolve();
    },
  ),
);

/** Every command, weighted towards the writes that change most. */
export const allCommands: fc.Arbitrary<Cmd>[] = [
  advance,
  createUser,
  createUser,
  patchUser,
  deleteUser,
  createGroup,
  patchGroup,
  deleteGroup,
  createTicket,
  createTicket,
  createTicket,
  patchTicket,
  patchTicket,
  deleteTicket,
  addMessage,
  addMessage,
  patchMessage,
  deleteMessage,
  listTickets,
  listTickets,
  listMessages,
  groupUsers,
];
