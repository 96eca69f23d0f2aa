import { conflict, forbidden, notFound, preconditionFailed, type DomainError } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { Outcome } from '../src/shared.js';
import { versionedWrite, type VersionedWrite } from '../src/versioned-write.js';

// The one helper every change of a stored resource runs: the order of its steps, what a lost
// race does (with and without If-Match), and what is written when.

interface Doc {
  readonly version: number;
  readonly text: string;
}

/** A store of one document that records every step the write took. */
const store = (initial: Doc | null) => {
  let doc = initial;
  const steps: string[] = [];
  /** Writers that come first: each time the write is about to land, one of them changes the document instead. */
  let racers = 0;
  const spec: VersionedWrite<Doc> = {
    load: () => {
      steps.push('load');
      return Promise.resolve(doc === null ? E.left(notFound('ticket', 1)) : E.right(doc));
    },
    write: (next, current) => {
      steps.push(`write ${next.text}`);
      if (doc === null || doc.version !== current.version) return Promise.resolve(false);
      if (racers > 0) {
        racers -= 1;
        doc = { version: doc.version + 1, text: 'theirs' };
        return Promise.resolve(false);
      }
      doc = next;
      return Promise.resolve(true);
    },
  };
  const change =
    (text: string) =>
    (current: Doc): Outcome<Doc> => {
      steps.push('change');
      return E.right(current.text === text ? current : { version: current.version + 1, text });
    };
  return {
    spec,
    change,
    steps,
    doc: () => doc,
    race: (n: number) => {
      racers = n;
    },
  };
};

const leftOf = <T>(r: Outcome<T>): DomainError => {
  if (E.isRight(r)) throw new Error('expected a refusal');
  return r.left;
};

describe('versionedWrite', () => {
  it('loads, asks who may write, checks If-Match, changes, then writes over the loaded version', async () => {
    const s = store({ version: 1, text: 'a' });
    const r = await versionedWrite(
      {
        ...s.spec,
        allowed: () => {
          s.steps.push('allowed');
          return null;
        },
        change: s.change('b'),
      },
      {
        ifMatch: (d) => {
          s.steps.push('if-match');
          return d.version === 1;
        },
      },
    );
    expect(r).to.deep.equal(E.right({ version: 2, text: 'b' }));
    expect(s.steps).to.deep.equal(['load', 'allowed', 'if-match', 'change', 'write b']);
    expect(s.doc()).to.deep.equal({ version: 2, text: 'b' });
  });

  it('answers each refusal at its step, writing nothing', async () => {
    const gone = store(null);
    expect(leftOf(await versionedWrite({ ...gone.spec, change: gone.change('b') }, {}))._tag).to.equal('NotFound');
    const s = store({ version: 1, text: 'a' });
    const refused = await versionedWrite({ ...s.spec, allowed: () => forbidden('no'), change: s.change('b') }, {});
    expect(leftOf(refused)).to.deep.equal(forbidden('no'));
    expect(leftOf(await versionedWrite({ ...s.spec, change: s.change('b') }, { ifMatch: () => false }))).to.deep.equal(
      preconditionFailed,
    );
    const invalid = await versionedWrite({ ...s.spec, change: () => E.left(conflict('bad change')) }, {});
    expect(leftOf(invalid)).to.deep.equal(conflict('bad change'));
    expect(s.steps.filter((x) => x.startsWith('write'))).to.deep.equal([]);
    expect(s.doc()).to.deep.equal({ version: 1, text: 'a' });
  });

  it('writes nothing when the change leaves the resource as it is', async () => {
    const s = store({ version: 1, text: 'a' });
    expect(await versionedWrite({ ...s.spec, change: s.change('a') }, {})).to.deep.equal(
      E.right({ version: 1, text: 'a' }),
    );
    expect(s.steps).to.deep.equal(['load', 'change']);
  });

  it('without a change, writes the resource as loaded (a removal by id) and answers it', async () => {
    const s = store({ version: 1, text: 'a' });
    const removed: Doc[] = [];
    const r = await versionedWrite({ ...s.spec, write: (next) => Promise.resolve(removed.push(next) > 0) }, {});
    expect(r).to.deep.equal(E.right({ version: 1, text: 'a' }));
    expect(removed).to.deep.equal([{ version: 1, text: 'a' }]);
  });

  it("answers the store's refusal of the write", async () => {
    const s = store({ version: 1, text: 'a' });
    const r = await versionedWrite(
      { ...s.spec, change: s.change('b'), write: () => Promise.resolve(conflict('taken')) },
      {},
    );
    expect(leftOf(r)).to.deep.equal(conflict('taken'));
  });

  it('after a lost race, starts again from a fresh load, and lands', async () => {
    const s = store({ version: 1, text: 'a' });
    s.race(2);
    const r = await versionedWrite({ ...s.spec, change: s.change('b') }, {});
    expect(r).to.deep.equal(E.right({ version: 4, text: 'b' }));
    expect(s.steps).to.deep.equal([
      'load',
      'change',
      'write b',
      'load',
      'change',
      'write b',
      'load',
      'change',
      'write b',
    ]);
  });

  it('gives up after 64 lost races in a row: Conflict, the resource being changed by others', async () => {
    const s = store({ version: 1, text: 'a' });
    s.race(64);
    const r = await versionedWrite({ ...s.spec, change: s.change('b') }, {});
    expect(leftOf(r)).to.deep.equal(conflict('the resource is being changed by others right now; retry the request'));
    expect(s.steps.filter((x) => x === 'load')).to.have.length(64);
    s.race(63);
    expect(
      E.isRight(await versionedWrite({ ...s.spec, change: s.change('c') }, {})),
      'the 64th attempt may land',
    ).to.equal(true);
  });

  it('starts from the state the request already loaded, and reloads only after a lost race', async () => {
    const s = store({ version: 1, text: 'a' });
    s.race(1);
    const r = await versionedWrite({ ...s.spec, loaded: { version: 1, text: 'a' }, change: s.change('b') }, {});
    expect(r).to.deep.equal(E.right({ version: 3, text: 'b' }));
    expect(s.steps).to.deep.equal(['change', 'write b', 'load', 'change', 'write b']);
  });

  it('under If-Match, a lost race is PreconditionFailed: the condition held on a state that is gone', async () => {
    const s = store({ version: 1, text: 'a' });
    s.race(1);
    const r = await versionedWrite({ ...s.spec, change: s.change('b') }, { ifMatch: () => true });
    expect(leftOf(r)).to.deep.equal(preconditionFailed);
    expect(s.doc()).to.deep.equal({ version: 2, text: 'theirs' });
  });

  it('checks If-Match on what the caller is shown', async () => {
    const s = store({ version: 1, text: 'a' });
    const seen: string[] = [];
    const r = await versionedWrite<Doc, string>(
      { ...s.spec, shown: (d) => `shown ${d.text}`, change: s.change('b') },
      {
        ifMatch: (shown) => {
          seen.push(shown);
          return true;
        },
      },
    );
    expect(E.isRight(r)).to.equal(true);
    expect(seen).to.deep.equal(['shown a']);
  });
});
