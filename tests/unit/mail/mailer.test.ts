/**
 * Mail (issue 13): the embedded SMTP catcher receives and parses what nodemailer sends; SMTP_URL sends to a real
 * SMTP server instead (here a second catcher standing in for it) with no mailbox of its own; links are found.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpCatcher, type SmtpCatcher } from '../../../src/server/mail/catcher';
import { Mailbox, linksOf, MAILBOX_LIMIT } from '../../../src/server/mail/mailbox';
import { createMailer, mailSettingsFromEnv } from '../../../src/server/mail/mailer';

const log = pino({ level: 'silent' });
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('mail settings', () => {
  it('uses the catcher by default, SMTP_URL when set, nothing with MAIL_CATCHER=0', () => {
    expect(mailSettingsFromEnv({})).toMatchObject({ smtpUrl: null, catcher: true, publicUrl: null });
    expect(mailSettingsFromEnv({ SMTP_URL: 'smtp://mail:25' })).toMatchObject({
      smtpUrl: 'smtp://mail:25',
      catcher: false,
    });
    expect(mailSettingsFromEnv({ MAIL_CATCHER: '0' }).catcher).toBe(false);
    expect(mailSettingsFromEnv({ PUBLIC_URL: 'https://c.example/' }).publicUrl).toBe('https://c.example');
  });
});

describe('linksOf', () => {
  it('finds http(s) links without trailing punctuation, once each', () => {
    expect(linksOf('Open http://a.example/x/1. Or (https://b.example/y) http://a.example/x/1')).toEqual([
      'http://a.example/x/1',
      'https://b.example/y',
    ]);
  });
});

describe('Mailbox', () => {
  it('keeps the newest MAILBOX_LIMIT mails, newest first', () => {
    const box = new Mailbox();
    for (let i = 0; i < MAILBOX_LIMIT + 5; i++)
      box.add({ to: ['a@x'], from: 'f@x', subject: `s${i}`, text: '' });
    const list = box.list();
    expect(list).toHaveLength(MAILBOX_LIMIT);
    expect(list[0]!.subject).toBe(`s${MAILBOX_LIMIT + 4}`);
    expect(box.clear()).toBe(MAILBOX_LIMIT);
  });
});

describe('mailer', () => {
  it('delivers to the embedded catcher, parsed (to, from, subject, text, links)', async () => {
    const mailer = createMailer(
      { smtpUrl: null, from: 'Console <c@edge.local>', catcher: true, publicUrl: null },
      log,
    );
    closers.push(() => mailer.close());
    await mailer.send({
      to: 'ada@example.com',
      subject: 'Grüße',
      text: 'Hallo\n\nhttp://127.0.0.1:1/confirm-mail/abc\n',
    });
    const mail = await mailer.mailbox!.waitFor((m) => m.subject === 'Grüße');
    expect(mail).toMatchObject({
      to: ['ada@example.com'],
      from: 'c@edge.local',
      links: ['http://127.0.0.1:1/confirm-mail/abc'],
    });
    expect(mail.text).toContain('Hallo');
  });

  it('with SMTP_URL sends there and keeps no mailbox', async () => {
    const remote = new Mailbox();
    const server: SmtpCatcher = await startSmtpCatcher(remote);
    closers.push(() => server.close());
    const mailer = createMailer(
      {
        smtpUrl: `smtp://127.0.0.1:${server.port}?ignoreTLS=true`,
        from: 'c@edge.local',
        catcher: false,
        publicUrl: null,
      },
      log,
    );
    closers.push(() => mailer.close());
    expect(mailer.mailbox).toBeNull();
    await mailer.send({ to: 'bob@example.com', subject: 'Hi', text: 'x' });
    expect((await remote.waitFor((m) => m.subject === 'Hi')).to).toEqual(['bob@example.com']);
  });

  it('drops mail (resolves) when neither SMTP_URL nor the catcher is on', async () => {
    const mailer = createMailer({ smtpUrl: null, from: 'c@x', catcher: false, publicUrl: null }, log);
    await expect(mailer.send({ to: 'a@x', subject: 's', text: 't' })).resolves.toBeUndefined();
    expect(mailer.mailbox).toBeNull();
  });
});
