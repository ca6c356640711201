/** Issue 7: loopback by default, and the demo account's password published on loopback only. */
import { afterEach, describe, expect, it } from 'vitest';
import { isLoopbackHost, resolveConfig } from '../../../src/server/config';

const demoAccount = { email: 'demo@example.com', password: 'demo-password' };
const savedHost = process.env.HOST;
afterEach(() => {
  if (savedHost === undefined) delete process.env.HOST;
  else process.env.HOST = savedHost;
});

describe('listen address and the demo account', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    delete process.env.HOST;
    expect(resolveConfig({}).host).toBe('127.0.0.1');
    process.env.HOST = '0.0.0.0';
    expect(resolveConfig({}).host).toBe('0.0.0.0');
    expect(resolveConfig({ host: '::1' }).host).toBe('::1');
  });

  it('tells loopback addresses from the others', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of [
      '0.0.0.0',
      '::',
      '',
      '192.168.1.10',
      '10.0.0.1',
      'example.com',
      '128.0.0.1',
      '127.0.0.1.nip.io',
    ]) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });

  it('publishes the demo account only when one is configured and the server listens on loopback only', () => {
    delete process.env.HOST;
    expect(resolveConfig({ demoAccount }).publishDemoAccount).toBe(true);
    expect(resolveConfig({ demoAccount, host: 'localhost' }).publishDemoAccount).toBe(true);
    expect(resolveConfig({ demoAccount, host: '0.0.0.0' }).publishDemoAccount).toBe(false);
    expect(resolveConfig({ demoAccount, host: '192.168.1.10' }).publishDemoAccount).toBe(false);
    expect(resolveConfig({}).publishDemoAccount).toBe(false);
    process.env.HOST = '::';
    expect(resolveConfig({ demoAccount }).publishDemoAccount).toBe(false);
  });
});
