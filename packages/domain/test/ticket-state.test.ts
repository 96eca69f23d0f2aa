import { expect } from 'chai';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import {
  allowedTransitions,
  applyTicketChanges,
  canTransition,
  changeState,
  initialTicketState,
  patchChanges,
  stateRank,
  statesFor,
  ticketStates,
  type Role,
  type StateChange,
  type Ticket,
  type TicketState,
} from '../src/index.js';
import { aTicket, leftOf, rightOf, T0 } from '../test-support/mothers.js';

// The contract's transition table (§4), written out independently of the implementation:
// open<->pending, open/pending->closed, closed->open; staying in a state is no transition.
const expectedAllowed: Record<TicketState, readonly TicketState[]> = {
  open: ['open', 'pending', 'closed'],
  pending: ['open', 'pending', 'closed'],
  closed: ['open', 'closed'],
};

const stateArb = fc.constantFrom<TicketState>('open', 'pending', 'closed');

describe('ticket state machine', () => {
  it('starts new tickets open', () => {
    expect(initialTicketState).to.equal('open');
  });

  it('knows exactly the states open, pending, closed, ranked in that life-cycle order', () => {
    expect([...ticketStates].sort()).to.deep.equal(['closed', 'open', 'pending']);
    expect(stateRank('open')).to.be.lessThan(stateRank('pending'));
    expect(stateRank('pending')).to.be.lessThan(stateRank('closed'));
  });

  for (const from of ['open', 'pending', 'closed'] as const) {
    for (const to of ['open', 'pending', 'closed'] as const) {
      const allowed = expectedAllowed[from].includes(to);
      it(`${allowed ? 'allows' : 'refuses'} ${from} -> ${to}`, () => {
        const current: StateChange = { state: from, closedAt: from === 'closed' ? T0 : null };
        expect(canTransition(from, to)).to.equal(allowed);
        const result = changeState(current, to, T0 + 1000);
        expect(E.isRight(result)).to.equal(allowed);
        if (allowed) expect(rightOf(result).state).to.equal(to);
      });
    }
  }

  it('names both ends of a refused transition', () => {
    expect(leftOf(changeState({ state: 'closed', closedAt: T0 }, 'pending', T0 + 1))).to.deep.equal({
      from: 'closed',
      to: 'pending',
    });
  });

  it('sets closed_at to the time of closing, from open and from pending', () => {
    for (const from of ['open', 'pending'] as const) {
      expect(rightOf(changeState({ state: from, closedAt: null }, 'closed', T0 + 5))).to.deep.equal({
        state: 'closed',
        closedAt: T0 + 5,
      });
    }
  });

  it('keeps the original closed_at while a closed ticket stays closed', () => {
    expect(rightOf(changeState({ state: 'closed', closedAt: T0 }, 'closed', T0 + 99)).closedAt).to.equal(T0);
  });

  it('clears closed_at on reopening', () => {
    expect(rightOf(changeState({ state: 'closed', closedAt: T0 }, 'open', T0 + 99))).to.deep.equal({
      state: 'open',
      closedAt: null,
    });
  });

  it('leaves closed_at null when moving between open and pending', () => {
    expect(rightOf(changeState({ state: 'open', closedAt: null }, 'pending', T0)).closedAt).to.equal(null);
    expect(rightOf(changeState({ state: 'pending', closedAt: null }, 'open', T0)).closedAt).to.equal(null);
  });

  describe('property: any sequence of requested states', () => {
    // Steps are requested states with strictly increasing times, so "the time of the most
    // recent transition into closed" identifies exactly one step.
    const stepsArb = fc.array(fc.tuple(stateArb, fc.integer({ min: 1, max: 3 * 60_000 })), { maxLength: 40 });
    const startArb = stateArb.map((s): StateChange => ({ state: s, closedAt: s === 'closed' ? T0 : null }));

    it('keeps closed_at set iff closed, refuses only closed->pending, and dates closed_at by the latest closing', () => {
      fc.assert(
        fc.property(startArb, stepsArb, (start, steps) => {
          let current = start;
          let now = T0;
          let lastClosing: number | null = start.state === 'closed' ? T0 : null;
          for (const [to, dt] of steps) {
            now += dt;
            const result = changeState(current, to, now);
            const refused = current.state === 'closed' && to === 'pending';
            expect(E.isLeft(result), `${current.state} -> ${to}`).to.equal(refused);
            if (E.isLeft(result)) continue; // a refused step changes nothing: `current` stays
            const next = result.right;
            if (to === 'closed' && current.state !== 'closed') lastClosing = now;
            expect(next.state).to.equal(to);
            expect(next.closedAt !== null).to.equal(next.state === 'closed');
            expect(next.closedAt).to.equal(next.state === 'closed' ? lastClosing : null);
            current = next;
          }
        }),
        { numRuns: 300 },
      );
    });

    it('on a ticket: a refused step leaves it untouched, an accepted one bumps the version once', () => {
      fc.assert(
        fc.property(stepsArb, (steps) => {
          let ticket: Ticket = aTicket({ state: 'open' });
          let now = T0;
          let lastClosing: number | null = null;
          for (const [to, dt] of steps) {
            now += dt;
            const before = structuredClone(ticket);
            const result = applyTicketChanges(ticket, patchChanges(ticket, { state: to }, null), now);
            if (ticket.state === 'closed' && to === 'pending') {
              expect(result).to.deep.equal(
                E.left([{ field: 'state', code: 'invalid_transition', message: leftOf(result)[0]!.message }]),
              );
              expect(ticket).to.deep.equal(before);
              continue;
            }
            const next = rightOf(result);
            if (to === ticket.state) {
              expect(next).to.equal(ticket); // nothing changed: the very same object, no new version
              continue;
            }
            if (to === 'closed') lastClosing = now;
            expect(next.version).to.equal(ticket.version + 1);
            expect(next.updatedAt).to.equal(now);
            expect(next.closedAt).to.equal(to === 'closed' ? lastClosing : null);
            ticket = next;
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('ticket state: allowed transitions (contract §7.2)', () => {
  const table: readonly [TicketState, boolean, Role, readonly TicketState[]][] = [
    ['open', false, 'agent', ['pending', 'closed']],
    ['open', false, 'admin', ['pending', 'closed']],
    ['open', false, 'customer', ['closed']],
    ['pending', false, 'agent', ['open', 'closed']],
    ['pending', false, 'customer', ['open', 'closed']],
    ['closed', false, 'admin', ['open']],
    ['closed', false, 'customer', ['open']],
    ['open', true, 'admin', []],
    ['closed', true, 'customer', []],
  ];
  for (const [state, deleted, role, expected] of table) {
    it(`${deleted ? 'a deleted' : 'an'} ${state} ticket, for ${role}: [${expected.join(', ')}]`, () => {
      expect(allowedTransitions(state, deleted, role)).to.deep.equal(expected);
    });
  }

  it('never lists a state the machine refuses, nor pending for a customer', () => {
    for (const from of ticketStates) {
      for (const role of ['customer', 'agent', 'admin'] as const) {
        for (const to of allowedTransitions(from, false, role)) {
          expect(canTransition(from, to)).to.equal(true);
          expect(to).to.not.equal(from);
          if (role === 'customer') expect(statesFor('customer')).to.include(to);
        }
      }
    }
  });
});
