import { expect } from 'chai';
import { suiteApi } from '../support/suite-api.js';

describe('HTTP: a smoke test of the running service', () => {
  const api = suiteApi();

  it('logs in the admin and creates and reads back a ticket over HTTPS', async () => {
    const token = await api.adminToken();
    const customer = await api.userWithToken('customer', 'Ada Lovelace');
    const created = await api.post(
      '/v1/tickets',
      { subject: 'Printer on fire', summary: 'Smoke from the tray', customer_id: customer.id },
      { token },
    );
    expect(created.status, created.text).to.equal(201);
    const url = (created.json as { url: string }).url;
    expect(url).to.match(/^https:\/\/localhost:\d+\/v1\/tickets\/\d+$/);
    const read = await api.get(new URL(url).pathname, { token: customer.token });
    expect(read.status).to.equal(200);
    expect(read.json).to.include({ subject: 'Printer on fire', customer_name: 'Ada Lovelace' });
  });
});
