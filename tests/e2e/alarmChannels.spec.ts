/**
 * Alarm channels in Chromium on the real stack (issue 11 "Every channel has a Test button … each attempt is
 * visible"; "Done when": an alarm fires on a simulated camera, the bell and the e-mail mailbox receive it, a
 * webhook receives it signed): a webhook channel against a local receiver started by the test shows its
 * signing secret once, its Test arrives signed and the attempt shows in the row and the delivery log; an
 * e-mail channel's Test mail shows in the embedded catcher's mailbox. Then an alarm linked to both channels
 * fires on a simulated camera of box B (a job started from /jobs sends the device its alarms): the webhook
 * receives the event signed with its idempotency key, the mailbox shows the event's mail, and the bell (the
 * real-time socket, no reload) shows it with the unread count; axe clean.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from './fixtures';
import { verifyWebhook } from '../../src/server/alarmChannels/signing';
import { expectAccessible } from './axe';
import { startAlarmJob } from './alarmJob';
import { DEMO, apiLogin, auth, listDevices, navigate, signIn } from './stack';

const BOX_B = 'x86 Edge Box B';

test('webhook and e-mail channels: Test, the attempt, the delivery log; a real alarm reaches the webhook, the mailbox and the bell', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const suffix = Date.now().toString(36);
  try {
    await signIn(page, DEMO);
    // The header's slots come with the features' chunks, after the first sign-in of a cold server.
    await expect(page.getByTestId('bell')).toBeVisible({ timeout: 30_000 });
    await navigate(page, '/alarm-channels');
    await expect(page.getByRole('heading', { name: 'Alarm channels', level: 1 })).toBeVisible();
    await expectAccessible(page, '[data-testid="channels-screen"]');

    const hook = `Hook ${suffix}`;
    await page.getByTestId('channel-kind').selectOption('webhook');
    await page.getByTestId('channel-name').fill(hook);
    await page.getByTestId('channel-target').fill(url);
    await page.getByTestId('channel-create').click();
    const secret = (await page.getByTestId('channel-secret-shown').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page, '[role="dialog"]');
    await page.getByRole('button', { name: 'I have copied it' }).click();

    await page.getByTestId(`channel-test-${hook}`).click();
    await expect(page.getByTestId(`channel-test-result-${hook}`)).toContainText('Delivered (200)');
    expect(got).toHaveLength(1);
    const sig = {
      signature: got[0]!.headers['x-edge-signature'] as string,
      timestamp: got[0]!.headers['x-edge-timestamp'] as string,
    };
    expect(verifyWebhook(secret, sig, got[0]!.body)).toBe(true);
    await page.getByTestId(`channel-log-${hook}`).click();
    await expect(page.getByTestId('channel-log').getByTestId('attempt-row')).toHaveCount(1);
    await expect(page.getByTestId('channel-log')).toContainText('200');

    const mail = `Mail ${suffix}`;
    await page.getByTestId('channel-kind').selectOption('email');
    await page.getByTestId('channel-name').fill(mail);
    await page.getByTestId('channel-target').fill(`ops-${suffix}@example.com`);
    await page.getByTestId('channel-create').click();
    await page.getByTestId(`channel-test-${mail}`).click();
    await expect(page.getByTestId(`channel-test-result-${mail}`)).toContainText('Delivered (250)');
    await expectAccessible(page, '[data-testid="channels-screen"]');
    await navigate(page, '/dev/mailbox');
    await expect(page.getByText(`Test message: ${mail}`).first()).toBeVisible();

    // A real alarm, linked to both channels, fires on box B's cam-1.
    const token = await apiLogin(request, DEMO);
    const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
    expect(boxB).toBeTruthy();
    const channels = (await (await request.get('/api/alarm-channels', { headers: auth(token) })).json())
      .channels as { id: string; name: string }[];
    const hookId = channels.find((c) => c.name === hook)!.id;
    const mailId = channels.find((c) => c.name === mail)!.id;
    const alarmName = `E2E channels ${suffix}`;
    const made = await request.post('/api/alarms', {
      headers: auth(token),
      data: {
        name: alarmName,
        sources: [{ type: 'PHYSICAL', text: 'Sim camera 1', value: `${boxB.device_id}_cam-1` }],
        classes: ['person'],
        cooldown_seconds: 600,
        severity: 'critical',
      },
    });
    expect(made.status()).toBe(200);
    const alarmId = (await made.json()).id as string;
    const linked = await request.put(`/api/alarm-channels/alarms/${alarmId}`, {
      headers: auth(token),
      data: { channel_ids: [hookId, mailId] },
    });
    expect(linked.status()).toBe(200);
    expect((await linked.json()).channel_ids.sort()).toEqual([hookId, mailId].sort());
    const unreadBefore = (
      (await (await request.get('/api/notifications', { headers: auth(token) })).json()) as { unread: number }
    ).unread;

    const job = `E2E channels job ${suffix}`;
    const jobRow = await startAlarmJob(page, job);

    // The webhook: the event of that alarm, signed, with its idempotency key <event id>:<channel id>.
    await expect
      .poll(() => got.filter((g) => g.body.includes(alarmId)).length, { timeout: 60_000 })
      .toBeGreaterThan(0);
    const fired = got.find((g) => g.body.includes(alarmId))!;
    const payload = JSON.parse(fired.body) as {
      type: string;
      idempotency_key: string;
      alarm: { id: string; name: string; severity: string };
      event: { id: string; class: string; camera_id: string; device_id: string | null };
    };
    expect(payload).toMatchObject({
      type: 'alarm.event',
      alarm: { id: alarmId, name: alarmName, severity: 'critical' },
      event: { class: 'person', camera_id: `${boxB.device_id}_cam-1` },
    });
    expect(fired.headers['idempotency-key']).toBe(`${payload.event.id}:${hookId}`);
    expect(payload.idempotency_key).toBe(`${payload.event.id}:${hookId}`);
    expect(
      verifyWebhook(
        secret,
        {
          signature: fired.headers['x-edge-signature'] as string,
          timestamp: fired.headers['x-edge-timestamp'] as string,
        },
        fired.body,
      ),
    ).toBe(true);
    // A wrong secret or a changed body does not verify.
    expect(
      verifyWebhook(
        `${secret}x`,
        {
          signature: fired.headers['x-edge-signature'] as string,
          timestamp: fired.headers['x-edge-timestamp'] as string,
        },
        fired.body,
      ),
    ).toBe(false);

    // The bell: pushed on the socket while /jobs is shown (no reload), with the unread count.
    await expect(page.getByTestId('bell-count')).toHaveText(/^\d+$/, { timeout: 30_000 });
    await expect
      .poll(async () => Number(await page.getByTestId('bell-count').textContent()), { timeout: 30_000 })
      .toBeGreaterThan(unreadBefore);
    await expect(page.getByTestId('bell')).toHaveAccessibleName(/unread/i);
    await page.getByTestId('bell').click();
    const list = page.getByTestId('bell-list');
    await expect(list).toBeVisible();
    const item = list.getByTestId('notification-item').filter({ hasText: alarmName }).first();
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('data-read', 'false');
    await expect(item).toContainText(`person`);
    await expectAccessible(page, '[data-testid="bell-list"]');
    await page.keyboard.press('Escape');

    // Stop the job (no more events), then the mailbox has the event's mail.
    await jobRow.getByTestId('job-stop').click();
    await expect(jobRow).toHaveAttribute('data-state', 'stopped', { timeout: 30_000 });
    await navigate(page, '/dev/mailbox');
    const subject = `[critical] ${alarmName}: person`;
    // Each person the alarm sees is one event: the mail of the event the webhook got is there.
    const eventMail = page
      .getByTestId('mailbox-message')
      .filter({ hasText: subject })
      .filter({ hasText: payload.event.id });
    await expect(async () => {
      await page.getByTestId('mailbox-refresh').click();
      await expect(eventMail).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(eventMail).toContainText(`ops-${suffix}@example.com`);

    // The outbox shows both channels' deliveries delivered.
    await navigate(page, '/alarm-channels');
    await expect(page.getByTestId(`channel-row-${hook}`)).toBeVisible({ timeout: 30_000 });
    const after = (await (await request.get('/api/alarm-channels', { headers: auth(token) })).json())
      .channels as { id: string; deliveries: { delivered: number; failed: number } }[];
    for (const id of [hookId, mailId]) {
      expect(after.find((c) => c.id === id)!.deliveries.delivered).toBeGreaterThan(0);
      expect(after.find((c) => c.id === id)!.deliveries.failed).toBe(0);
    }

    // Clean up: delete the job and the alarm.
    await navigate(page, '/jobs');
    await jobRow.getByTestId('job-delete').click();
    await page.getByTestId('jobs-confirm-delete').click();
    await expect(jobRow).toHaveCount(0);
    expect((await request.delete(`/api/alarms/${alarmId}`, { headers: auth(token) })).status()).toBe(200);
  } finally {
    receiver.close();
  }
});
