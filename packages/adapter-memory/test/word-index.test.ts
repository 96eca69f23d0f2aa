import { expect } from 'chai';
import fc from 'fast-check';
import { WordIndex } from '../src/tickets/word-index.js';

// A word of one ticket is kept as its bare id, a word of more as a sorted list, and a word
// goes back and forth as tickets gain and lose it: whatever the moves, every word's posting
// lists the ids that have it, ascending, as a plain map of sets would.

const vocabulary = ['printer', 'fire', 'vip', 'a1', 'b2'];

describe("WordIndex (the memory store's search words)", () => {
  it('lists, for every word, the ids that have it, whatever the order of moves', () => {
    const move = fc.record({
      id: fc.integer({ min: 1, max: 8 }),
      words: fc.subarray(vocabulary),
      compact: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(move, { maxLength: 60 }), (moves) => {
        const index = new WordIndex(2);
        const current = new Map<number, readonly string[]>();
        for (const { id, words, compact } of moves) {
          // A compaction (the start's, once every ticket is back) packs the lists; later moves unpack what they change.
          if (compact) index.compact();
          index.replace(id, current.get(id) ?? [], words);
          current.set(id, words);
        }
        for (const word of vocabulary) {
          const expected = [...current]
            .filter(([, ws]) => ws.includes(word))
            .map(([id]) => id)
            .sort((a, b) => a - b);
          const posting = index.posting(word);
          expect(posting?.values() ?? [], word).to.deep.equal(expected);
        }
      }),
    );
  });

  it('forgets a word once no ticket has it', () => {
    const index = new WordIndex(2);
    index.replace(1, [], ['solo']);
    expect(index.posting('solo')?.values()).to.deep.equal([1]);
    index.replace(2, [], ['solo']);
    index.replace(1, ['solo'], []);
    expect(index.posting('solo')?.values()).to.deep.equal([2]);
    index.replace(2, ['solo'], ['other']);
    expect(index.posting('solo')).to.equal(undefined);
  });
});
