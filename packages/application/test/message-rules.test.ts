import type { MessageNumber } from '@support/domain';
import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { decoded, leftOf, page, rightOf, world } from './support/world.js';

// A message's rules beyond the role matrix: what a customer may not reach or change, and how
// a refusal names the message (ticket/number).

const n = (x: number): MessageNumber => x as MessageNumber;

describe('message rules', () => {
  it('an internal note does not exist for a customer; a deleted message is gone; both named ticket/number', async () => {
    const w = await world();
    const alice = await w.customer();
    const agent = await w.agent();
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(agent, id, decoded({ body: 'staff only', internal: true })));
    rightOf(await w.app.messages.create(alice, id, decoded({ body: 'hello' })));
    expect(leftOf(await w.app.messages.get(alice, id, n(1)))).to.deep.include({
      _tag: 'NotFound',
      resource: 'message',
      id: `${String(id)}/1`,
    });
    expect(rightOf(await w.app.messages.get(agent, id, n(1))).internal).to.equal(true);
    expect(rightOf(await w.app.messages.list(alice, id, page())).items.map((m) => m.number)).to.deep.equal([2]);
    rightOf(await w.app.messages.delete(alice, id, n(2)));
    expect(leftOf(await w.app.messages.get(alice, id, n(2)))).to.deep.include({
      _tag: 'Gone',
      resource: 'message',
      id: `${String(id)}/2`,
    });
    expect(
      leftOf(
        await w.app.messages.list(
          alice,
          id,
          E.left([{ parameter: 'page', code: 'invalid_value', message: 'x' }] as never),
        ),
      )._tag,
    ).to.equal('InvalidQuery');
  });

  it('a customer changes only what they wrote, and never makes a note internal', async () => {
    const w = await world();
    const alice = await w.customer();
    const agent = await w.agent();
    const id = await w.ticket(alice);
    rightOf(await w.app.messages.create(agent, id, decoded({ body: 'from staff' })));
    rightOf(await w.app.messages.create(alice, id, decoded({ body: 'mine' })));
    expect(leftOf(await w.app.messages.patch(alice, id, n(1), decoded({ body: 'edited' })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may change only messages they wrote',
    });
    expect(leftOf(await w.app.messages.patch(alice, id, n(2), decoded({ internal: true })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may not write internal notes',
    });
    expect(leftOf(await w.app.messages.create(alice, id, decoded({ body: 'x', internal: true })))).to.deep.equal({
      _tag: 'Forbidden',
      message: 'customers may not write internal notes',
    });
    expect(
      rightOf(await w.app.messages.patch(alice, id, n(2), decoded({ internal: false }))).version,
      'not internal already: no change',
    ).to.equal(1);
    expect(rightOf(await w.app.messages.replace(alice, id, n(2), decoded({ body: 'rewritten' }))).body).to.equal(
      'rewritten',
    );
    expect(rightOf(await w.app.messages.patch(agent, id, n(2), decoded({ internal: true }))).internal).to.equal(true);
  });
});
