import { expect } from 'chai';
import { defaultPriority, defaultRole, isStaff, priorities, priorityRank, roles } from '../src/index.js';

describe('priority', () => {
  it('ranks low < normal < high < urgent (by rank, not by name)', () => {
    const byRank = [...priorities].sort((a, b) => priorityRank(a) - priorityRank(b));
    expect(byRank).to.deep.equal(['low', 'normal', 'high', 'urgent']);
    // alphabetical order would put "high" first
    expect(priorityRank('high')).to.be.greaterThan(priorityRank('low'));
    expect(priorityRank('urgent')).to.be.greaterThan(priorityRank('high'));
  });

  it('defaults to normal', () => {
    expect(defaultPriority).to.equal('normal');
  });
});

describe('role', () => {
  it('has customer, agent and admin; agents and admins are staff, customers are not', () => {
    expect([...roles].sort()).to.deep.equal(['admin', 'agent', 'customer']);
    expect(isStaff('agent')).to.equal(true);
    expect(isStaff('admin')).to.equal(true);
    expect(isStaff('customer')).to.equal(false);
  });

  it('makes new users customers by default', () => {
    expect(defaultRole).to.equal('customer');
  });
});
