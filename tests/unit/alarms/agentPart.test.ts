/**
 * The device's alarms part end to end against a real server and PostgreSQL (src/agent/alarms/): the list
 * from alarm-new is kept across a restart of the part; matching frames post an event whose JPEG snapshot
 * (ffmpeg) and MP4 clip (ffmpeg, H.264) the server stores; the cooldown holds a track; an alarm whose calendar
 * is not active now records nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeviceAlarms } from '../../../src/agent/alarms';
import { httpEventServer } from '../../../src/agent/alarms/post';
import type { Backend, I420Frame } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import type { Detection } from '../../../src/protocol/inference';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let deviceToken: string;
let device: { id: string; device_id: string };
const dirs: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const o = await server.seed.ensureUser({ email: 'owner@agent-alarms.test', password: 'owner-pass-1' });
  owner = (await login(server, 'owner@agent-alarms.test', 'owner-pass-1')).token;
  device = await server.seed.ensureDevice({ ownerId: o.id, label: 'Alarm agent box', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
}, 60_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  return server?.dispose();
});

function deps(stateDir: string): AgentPartDeps {
  return {
    mode: 'sim',
    backend: { kind: 'x86' } as Backend,
    deviceId: device.device_id,
    label: 'Alarm agent box',
    stateDir,
    log: silentLogger,
    broadcast: () => undefined,
    server: { url: server.url, token: deviceToken },
  };
}

/** A grey 320×240 I420 frame. */
const frame = (): I420Frame => ({ width: 320, height: 240, data: new Uint8Array(320 * 240 * 1.5).fill(128) });
const person: Detection = {
  class_id: 0,
  class_name: 'person',
  score: 0.9,
  track_id: 4,
  box: [0.4, 0.5, 0.1, 0.4],
};

describe('device alarms part', () => {
  it('keeps the list, posts an event with its snapshot and clip, and holds the track in its cooldown', async () => {
    const created = await api(server, 'POST', 'alarms', {
      token: owner,
      body: {
        name: 'Floor',
        sources: [{ type: 'PHYSICAL', text: 'Cam 1', value: `${device.device_id}_cam-1` }],
        classes: ['person'],
        zones: [
          [
            [0, 0.5],
            [1, 0.5],
            [1, 1],
            [0, 1],
          ],
        ],
        cooldown_seconds: 60,
      },
    });
    expect(created.status).toBe(200);
    const list = (await api(server, 'GET', `alarms/device/${device.device_id}`, { token: owner })).body
      .alarms;
    const dir = mkdtempSync(join(tmpdir(), 'alarms-part-'));
    dirs.push(dir);

    const first = createDeviceAlarms(deps(dir), {
      server: httpEventServer({ url: server.url, token: deviceToken }),
    });
    expect(await first.set(list)).toBe(1);
    await first.close();
    // A new part (an agent restart) starts with the kept list, then the server's (the same).
    const part = createDeviceAlarms(deps(dir));
    await part.idle();
    expect(part.list().map((a) => a.id)).toEqual([created.body.id]);

    const job = { job_id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11', camera_id: 'cam-1' };
    const t0 = Date.now();
    // 3.2 s of frames at 10 fps: one event (cooldown), a clip of the frames after it.
    for (let i = 0; i <= 32; i++) part.onDetections(job, frame(), [person], t0 + i * 100);
    // Another camera: no source of the alarm.
    part.onDetections({ ...job, camera_id: 'cam-2' }, frame(), [person], t0 + 3300);
    await part.idle();
    await part.close();

    const events = (await api(server, 'GET', 'events', { token: owner })).body.events;
    expect(events).toHaveLength(1);
    const ev = events[0];
    expect(ev).toMatchObject({
      alarm_name: 'Floor',
      device_id: device.device_id,
      camera_id: `${device.device_id}_cam-1`,
      camera_kind: 'PHYSICAL',
      class: 'person',
      track_id: '4',
      job_id: null,
      box: { x: 0.4, y: 0.5, w: 0.1, h: 0.4 },
    });
    const jpeg = Buffer.from(await (await fetch(`${server.url}${ev.snapshot_url}`)).arrayBuffer());
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const clip = await fetch(`${server.url}${ev.clip_url}`);
    expect(clip.headers.get('content-type')).toBe('video/mp4');
    const mp4 = Buffer.from(await clip.arrayBuffer());
    expect(mp4.toString('latin1', 4, 8)).toBe('ftyp');
    expect(mp4.length).toBeGreaterThan(1000);
  }, 60_000);

  it('records nothing for an alarm outside its calendar', async () => {
    const weekday = (new Date().getUTCDay() + 3) % 7;
    const cal = await api(server, 'POST', 'schedulers/calendars', {
      token: owner,
      body: {
        name: 'Not today',
        time_zone: 'UTC',
        intervals: [{ weekday, start: '00:00', end: '24:00' }],
        job_ids: [],
      },
    });
    const created = await api(server, 'POST', 'alarms', {
      token: owner,
      body: {
        name: 'Off hours',
        sources: [{ type: 'PHYSICAL', text: 'Cam 3', value: `${device.device_id}_cam-3` }],
        calendar_ids: [cal.body.id],
      },
    });
    expect(created.body.active).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'alarms-part-'));
    dirs.push(dir);
    const part = createDeviceAlarms(deps(dir), { clips: false });
    await part.idle();
    expect(
      part
        .list()
        .map((a) => a.name)
        .sort(),
    ).toEqual(['Floor', 'Off hours']);
    for (let i = 0; i < 5; i++)
      part.onDetections({ job_id: 'j', camera_id: 'cam-3' }, frame(), [person], Date.now() + i * 100);
    await part.idle();
    await part.close();
    const events = (await api(server, 'GET', `events?camera_id=${device.device_id}_cam-3`, { token: owner }))
      .body;
    expect(events.events).toEqual([]);
  }, 60_000);
});
