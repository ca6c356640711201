/**
 * The billing routes on a real server with the offline test provider (src/server/routes/billing.ts): the public
 * plan list; a declined test card answers a clear failure and stores nothing; a paid checkout with a new card
 * saves card (last4 only) and address when asked, creates the licence (the device's stream quota rises from the
 * free tier's 16 to 32), mails a receipt; a saved card pays again and the new licence follows the running one;
 * invalid cards, another user's card, unknown plans and devices are refused; §7 get-payment-cards and
 * get-user-address answer `res`; admins list, grant and revoke (each in the audit log), others get 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin: string;
let alice: string;
let bob: string;
let aliceDevice = '';
let bobDevice = '';

const address = {
  name: 'Alice Example',
  address: '1 Sensor Street',
  country: 'France',
  city: 'Paris',
  postal_code: '75001',
  address_name: 'Office',
  is_saved: true,
};
const newCard = (number: string, save = false) => ({
  pay_with_new_card: true,
  card_number: number,
  card_month: 12,
  card_year: new Date().getUTCFullYear() + 2,
  card_cvc: '123',
  is_saved: save,
});

async function mails(to: string) {
  const box = await api(server, 'GET', 'dev/mailbox', { token: admin });
  return (box.body.messages as Array<{ to: string[]; subject: string; text: string }>).filter((m) =>
    m.to.includes(to),
  );
}

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@billing.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  const a = await server.seed.ensureUser({
    email: 'alice@billing.test',
    password: 'alice-pass-1',
    username: 'Alice',
  });
  const b = await server.seed.ensureUser({ email: 'bob@billing.test', password: 'bob-pass-1' });
  aliceDevice = (await server.seed.ensureDevice({ ownerId: a.id, label: 'Alice box', chipsetId: '0' }))
    .device_id;
  bobDevice = (await server.seed.ensureDevice({ ownerId: b.id, label: 'Bob box', chipsetId: '0' })).device_id;
  admin = (await login(server, 'admin@billing.test', 'admin-pass-1')).token;
  alice = (await login(server, 'alice@billing.test', 'alice-pass-1')).token;
  bob = (await login(server, 'bob@billing.test', 'bob-pass-1')).token;
}, 90_000);
afterAll(() => server?.dispose());

const quota = async (token: string, deviceId: string, n: number) =>
  (await api(server, 'GET', `usage/check_stream_limit?deviceId=${deviceId}&numOfCameras=${n}`, { token }))
    .body.is_quota_available as boolean;

describe('billing', () => {
  it('lists the plans publicly, free tier first, with the test provider and its cards', async () => {
    const r = await api(server, 'GET', 'billing/plans');
    expect(r.status).toBe(200);
    expect(r.body.plans[0]).toMatchObject({ id: 'free', max_streams: 16, price_cents: 0 });
    expect(r.body.provider).toEqual({ id: 'test', test: true });
    expect(r.body.test_cards.map((c: { number: string }) => c.number)).toContain('4000 0000 0000 0002');
  });

  it('a declined test card answers a clear failure and stores nothing', async () => {
    const r = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: {
        plan_id: 'device-pro-monthly',
        device_id: aliceDevice,
        card: newCard('4000 0000 0000 0002', true),
        address,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'failed', code: 'card_declined', message: 'Your card was declined.' });
    expect((await api(server, 'GET', 'get-payment-cards', { token: alice })).body.res).toEqual([]);
    expect((await api(server, 'GET', 'get-user-address', { token: alice })).body.res).toEqual([]);
    expect((await api(server, 'GET', 'billing/licences', { token: alice })).body.licences).toEqual([]);
    expect(await mails('alice@billing.test')).toEqual([]);
  });

  it('refuses bad cards, unknown plans, missing and foreign devices', async () => {
    const base = { plan_id: 'device-pro-monthly', device_id: aliceDevice, address };
    const luhn = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: { ...base, card: newCard('4242 4242 4242 4241') },
    });
    expect(luhn.status).toBe(400);
    expect(luhn.body.code).toBe('Card_invalid');
    const unknown = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: { ...base, card: newCard('4111 1111 1111 1111') },
    });
    expect(unknown.body).toMatchObject({ status: 'failed', code: 'test_card_unknown' });
    expect(
      (
        await api(server, 'POST', 'billing/checkout', {
          token: alice,
          body: { ...base, plan_id: 'gold', card: newCard('4242424242424242') },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(server, 'POST', 'billing/checkout', {
          token: alice,
          body: { ...base, plan_id: 'free', card: newCard('4242424242424242') },
        })
      ).status,
    ).toBe(404);
    const noDevice = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: { ...base, device_id: null, card: newCard('4242424242424242') },
    });
    expect(noDevice.body.code).toBe('Device_required');
    const foreign = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: { ...base, device_id: bobDevice, card: newCard('4242424242424242') },
    });
    expect(foreign.status).toBe(404);
    const noCity = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: { ...base, address: { ...address, city: '' }, card: newCard('4242424242424242') },
    });
    expect(noCity.status).toBe(400);
    expect(noCity.body.message).toContain('city');
    expect(
      (
        await api(server, 'POST', 'billing/checkout', {
          token: alice,
          body: { ...base, card: newCard('4242424242424242') },
        })
      ).status,
    ).toBe(200);
    // That last one paid: start the quota checks below from a known point.
    expect((await api(server, 'GET', 'billing/licences', { token: alice })).body.licences).toHaveLength(1);
  });

  it('pays with a new saved card: card (last4) and address saved, licence, quota 16 → 32, receipt', async () => {
    expect(await quota(bob, bobDevice, 17)).toBe(false);
    const r = await api(server, 'POST', 'billing/checkout', {
      token: bob,
      body: {
        plan_id: 'device-pro-monthly',
        device_id: bobDevice,
        card: newCard('4242 4242 4242 4242', true),
        address: { ...address, name: 'Bob' },
        language: 'de',
      },
    });
    expect(r.body.status).toBe('paid');
    expect(r.body.licence).toMatchObject({
      plan_id: 'device-pro-monthly',
      device_id: bobDevice,
      max_streams: 32,
      state: 'active',
      source: 'purchase',
    });
    expect(r.body.order).toMatchObject({
      status: 'paid',
      amount_cents: 1900,
      currency: 'EUR',
      provider: 'test',
    });
    const cards = (await api(server, 'GET', 'get-payment-cards', { token: bob })).body.res;
    expect(cards).toEqual([
      expect.objectContaining({ last4: '4242', default: true, brand: 'Visa', exp_month: 12 }),
    ]);
    expect(JSON.stringify(cards)).not.toContain('4242424242424242');
    const addresses = (await api(server, 'GET', 'get-user-address', { token: bob })).body.res;
    expect(addresses).toEqual([
      expect.objectContaining({ name: 'Bob', city: 'Paris', address_name: 'Office', default: true }),
    ]);
    expect(await quota(bob, bobDevice, 32)).toBe(true);
    expect(await quota(bob, bobDevice, 33)).toBe(false);
    const limits = (await api(server, 'GET', 'usage/all_stream_limits', { token: bob })).body.stream_limits;
    expect(limits).toEqual([{ deviceId: bobDevice, max_streams: 32 }]);
    const receipt = (await mails('bob@billing.test'))[0];
    expect(receipt?.subject).toBe('Ihre Quittung: Device Pro (monthly)');
    expect(receipt?.text).toContain('19.00 EUR');
    expect(receipt?.text).toContain('Visa •••• 4242');
    expect(receipt?.text).toContain('/profile/my-licences');
    expect(receipt?.text).toContain('kein Geld');

    const order = await api(server, 'GET', `billing/orders/${r.body.order.id}`, { token: bob });
    expect(order.body).toMatchObject({ status: 'paid', licence_id: r.body.licence.id });
    expect((await api(server, 'GET', `billing/orders/${r.body.order.id}`, { token: alice })).status).toBe(
      404,
    );

    // Again with the saved card and address: the new licence starts when the running one ends.
    const again = await api(server, 'POST', 'billing/checkout', {
      token: bob,
      body: {
        plan_id: 'device-pro-monthly',
        device_id: bobDevice,
        card: { pay_with_new_card: false, card_id: cards[0].id },
        address: { address_id: addresses[0].id },
      },
    });
    expect(again.body.status).toBe('paid');
    expect(again.body.licence.starts_at).toBe(r.body.licence.expires_at);
    expect(again.body.licence.state).toBe('scheduled');
    // Another user's saved card or address is unknown to Alice.
    const foreign = await api(server, 'POST', 'billing/checkout', {
      token: alice,
      body: {
        plan_id: 'priority-support',
        card: { pay_with_new_card: false, card_id: cards[0].id },
        address,
      },
    });
    expect(foreign.status).toBe(404);
    const devices = (await api(server, 'GET', 'billing/devices', { token: bob })).body.devices;
    expect(devices).toEqual([expect.objectContaining({ device_id: bobDevice, max_streams: 32 })]);
    expect(devices[0].licensed_until).toBe(again.body.licence.expires_at);

    expect((await api(server, 'DELETE', `payment-cards/${cards[0].id}`, { token: alice })).status).toBe(404);
    expect((await api(server, 'DELETE', `payment-cards/${cards[0].id}`, { token: bob })).status).toBe(200);
    expect((await api(server, 'GET', 'get-payment-cards', { token: bob })).body.res).toEqual([]);
  });

  it('admins list, grant and revoke (audited); others are refused by the server', async () => {
    for (const [method, path, body] of [
      ['GET', 'admin/licences', undefined],
      ['POST', 'admin/licences', { email: 'bob@billing.test', plan_id: 'priority-support' }],
      ['POST', `admin/licences/${crypto.randomUUID()}/revoke`, undefined],
    ] as const) {
      expect((await api(server, method, path, { token: alice, body })).status).toBe(403);
    }
    const granted = await api(server, 'POST', 'admin/licences', {
      token: admin,
      body: { email: 'Alice@billing.test', plan_id: 'device-pro-annual', device_id: aliceDevice, days: 10 },
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      user_email: 'alice@billing.test',
      source: 'admin',
      state: 'expiring',
      device_id: aliceDevice,
    });
    expect(
      (
        await api(server, 'POST', 'admin/licences', {
          token: admin,
          body: { email: 'nobody@billing.test', plan_id: 'priority-support' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api(server, 'POST', 'admin/licences', {
          token: admin,
          body: { email: 'alice@billing.test', plan_id: 'device-pro-annual', device_id: bobDevice },
        })
      ).status,
    ).toBe(404);

    const list = await api(server, 'GET', 'admin/licences?search=alice', { token: admin });
    expect(list.body.total).toBe(2);
    expect(list.body.licences[0].id).toBe(granted.body.id);

    const revoked = await api(server, 'POST', `admin/licences/${granted.body.id}/revoke`, { token: admin });
    expect(revoked.body).toMatchObject({ state: 'revoked' });
    expect(
      (await api(server, 'POST', `admin/licences/${granted.body.id}/revoke`, { token: admin })).status,
    ).toBe(409);

    // Both are in the admin audit log, with who did it and to which licence.
    for (const action of ['licence.grant', 'licence.revoke']) {
      const log = await api(server, 'GET', `admin/audit-log?action=${action}`, { token: admin });
      expect(log.status).toBe(200);
      expect(log.body.entries).toEqual([
        expect.objectContaining({
          action,
          target_type: 'licence',
          target_id: granted.body.id,
          actor: expect.objectContaining({ email: 'admin@billing.test' }),
        }),
      ]);
    }
  });
});
