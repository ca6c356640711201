/**
 * The agent end to end on loopback: a real PeerJS server, the agent with a fake server API (local JWKS), and
 * a Node PeerJS client (wrtc) playing the browser — hello/grant, requests, errors, and a live stream decoded
 * through wrtc's RTCVideoSink.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Peer as PeerType } from 'peerjs';
import { PeerServer } from 'peer';
import type { IClient } from 'peer';
import { startAgent } from '../../../src/agent/index';
import type { RunningAgent } from '../../../src/agent/index';
import { silentLogger } from '../../../src/agent/log';
import { peerOptions } from '../../../src/agent/link/signalling';
import { loadPeer, nonstandard, wrtc } from '../../../src/agent/wrtc';
import { fakeServerApi, makeKeys, signGrant } from './helpers';
import { TestLink } from './loopback';
import type { TestKeys } from './helpers';

const PORT = 18200 + Math.floor(Math.random() * 25);
const SERVER = `http://127.0.0.1:${PORT}`;
const DEVICE = 'dev-00112233aabbccdd';
const BROWSER = 'web-linktestbrowser01';
const OTHER_BROWSER = 'web-linktestbrowser02';

describe('agent link over loopback', () => {
  let keys: TestKeys;
  let server: http.Server;
  /** Signalling registrations, by peer id (latest first). */
  const registrations: string[] = [];
  const clients = new Map<string, IClient>();
  let agent: RunningAgent;
  let browser: PeerType;
  let other: PeerType;
  const links: TestLink[] = [];

  const openPeer = async (id: string) => {
    const Peer = await loadPeer();
    const peer = new Peer(id, peerOptions(SERVER, 'browser-token', []));
    await new Promise<void>((resolve, reject) => {
      peer.once('open', () => resolve());
      peer.once('error', reject);
    });
    return peer;
  };

  const connect = async (peer: PeerType, grant: string | null): Promise<TestLink> => {
    const link = new TestLink(peer.connect(DEVICE, { serialization: 'json', reliable: true }));
    links.push(link);
    await new Promise<void>((resolve) => link.conn.once('open', () => resolve()));
    if (grant !== null) void link.conn.send({ type: 'hello', grant });
    return link;
  };

  const greeted = async (peer: PeerType, browserId: string) => {
    const link = await connect(peer, await signGrant(keys, { device_id: DEVICE, browser_id: browserId }));
    await link.next((m) => m.type === 'hello.ok');
    return link;
  };

  beforeAll(async () => {
    keys = await makeKeys();
    server = await new Promise<http.Server>((resolve) => {
      const peerServer = PeerServer({ port: PORT, host: '127.0.0.1', path: '/peerjs', key: 'peerjs' }, (s) =>
        resolve(s as http.Server),
      );
      peerServer.on('connection', (client) => {
        registrations.unshift(client.getId());
        clients.set(client.getId(), client);
      });
    });
    agent = await startAgent({
      server: SERVER,
      token: 'device-token',
      backend: 'sim',
      cameras: 2,
      api: fakeServerApi(DEVICE, keys, '0'),
      logger: silentLogger,
    });
    [browser, other] = await Promise.all([openPeer(BROWSER), openPeer(OTHER_BROWSER)]);
  });

  afterAll(async () => {
    for (const l of links) l.conn.close();
    browser?.destroy();
    other?.destroy();
    await agent?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('registers under its device id', () => {
    expect(agent.deviceId).toBe(DEVICE);
  });

  it('greets a browser with a valid grant and answers ping', async () => {
    const link = await greeted(browser, BROWSER);
    expect(link.messages[0]).toEqual({ type: 'hello.ok', device_id: DEVICE });
    const reply = await link.call('ping', {});
    expect(reply).toMatchObject({ type: 'reply', process: 'ping', ok: true, data: { pong: true } });

    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await link.call('ping', {});
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.info(
      `data-channel round trip (ping) p50 ${times[100]!.toFixed(3)} ms, p95 ${times[190]!.toFixed(3)} ms`,
    );
  });

  it('refuses a grant issued to another browser with hello.error and closes the link', async () => {
    const grant = await signGrant(keys, { device_id: DEVICE, browser_id: OTHER_BROWSER });
    const link = await connect(browser, grant);
    const refusal = await link.next((m) => m.type === 'hello.error');
    expect(refusal).toMatchObject({ error: { code: 'unauthorized' } });
    await expect.poll(() => link.closed, { timeout: 5_000 }).toBe(true);
  });

  it('refuses a link whose first message is a request', async () => {
    const link = await connect(browser, null);
    void link.conn.send({ type: 'request', process: 'ping', requestId: 'x', payload: {} });
    await expect(link.next((m) => m.type === 'hello.error')).resolves.toMatchObject({
      error: { code: 'unauthorized' },
    });
    expect(link.messages.some((m) => m.type === 'reply')).toBe(false);
  });

  it('answers an unknown process and malformed text with error replies and keeps serving', async () => {
    const link = await greeted(browser, BROWSER);
    await expect(link.call('format-disk', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown_process' },
    });
    void link.conn.send('{this is not json');
    await expect(link.next((m) => m.type === 'reply' && m.requestId === '')).resolves.toMatchObject({
      ok: false,
      error: { code: 'malformed_message' },
    });
    await expect(link.call('get-supported-resolutions', { camera_id: 42 })).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_payload' },
    });
    await expect(link.call('ping', {})).resolves.toMatchObject({ ok: true });
  });

  it('lists its cameras, their resolutions, versions and a still picture', async () => {
    const link = await greeted(browser, BROWSER);
    const list = await link.call('camera-list', {});
    expect(list.ok && (list.data as { cameras: { camera_id: string; device_id: string }[] }).cameras).toEqual(
      [
        expect.objectContaining({ camera_id: 'cam-1', device_id: DEVICE }),
        expect.objectContaining({ camera_id: 'cam-2', device_id: DEVICE }),
      ],
    );
    await expect(link.call('get-supported-resolutions', { camera_id: 'cam-1' })).resolves.toMatchObject({
      ok: true,
      data: {
        resolutions: expect.arrayContaining([expect.objectContaining({ width: 640, height: 480, fps: 30 })]),
      },
    });
    await expect(link.call('get-client-version', {})).resolves.toMatchObject({
      ok: true,
      data: { backend: 'sim' },
    });
    await expect(link.call('jtop-health', {})).resolves.toMatchObject({
      ok: true,
      data: { available: false },
    });
    // The sim x86 box's NVIDIA driver (the GPU driver check, x86 only).
    await expect(link.call('get-gpu-driver-version', {})).resolves.toMatchObject({
      ok: true,
      data: { driver_version: '550.54.15', gpus: [expect.any(String)] },
    });
    const still = await link.call('getOneFrameFromPhysicalCamera', { camera_id: 'cam-2' });
    expect(still).toMatchObject({
      ok: true,
      data: { image: expect.stringMatching(/^data:image\/png;base64,/) },
    });
    await expect(link.call('get-supported-resolutions', { camera_id: 'cam-9' })).resolves.toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('answers a flood of stills with a few stills and busy for the rest, and keeps answering ping meanwhile', async () => {
    const link = await greeted(browser, BROWSER);
    const flood = Array.from({ length: 200 }, () =>
      link.call('getOneFrameFromPhysicalCamera', { camera_id: 'cam-1' }),
    );
    const ping = await link.call('ping', {});
    expect(ping).toMatchObject({ ok: true });
    const replies = await Promise.all(flood);
    const ok = replies.filter((r) => r.ok).length;
    const busy = replies.filter((r) => !r.ok && r.error.code === 'busy').length;
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok + busy).toBe(200);
    expect(busy).toBeGreaterThan(150);
  });

  it('streams a camera: answers the offer, delivers decoded frames of the chosen size, stops on stop-stream', async () => {
    const link = await greeted(browser, BROWSER);
    const pc = new wrtc.RTCPeerConnection({ iceServers: [] });
    try {
      pc.addTransceiver('video', { direction: 'recvonly' });
      const firstFrame = new Promise<{ width: number; height: number }>((resolve) => {
        pc.ontrack = (e: RTCTrackEvent) => {
          const sink = new nonstandard.RTCVideoSink(e.track);
          sink.onframe = ({ frame }: { frame: { width: number; height: number } }) => {
            if (frame.width === 320 && frame.height === 240) {
              sink.stop();
              resolve({ width: frame.width, height: frame.height });
            }
          };
        };
      });
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
      });
      const t0 = performance.now();
      const reply = await link.call('send-sdp', {
        camera_id: 'cam-1',
        callId: 'call-1',
        sdp: { type: 'offer', sdp: pc.localDescription!.sdp },
        resolution: { pixel_format: 'I420', width: 320, height: 240, fps: 30 },
      });
      const tAnswer = performance.now() - t0;
      expect(reply).toMatchObject({
        ok: true,
        data: { callId: 'call-1', sdp: { type: 'answer' }, resolution: { width: 320, height: 240, fps: 30 } },
      });
      const data = (reply as { data: { sdp: RTCSessionDescriptionInit } }).data;
      expect(data.sdp.sdp).toMatch(/VP8/);
      await pc.setRemoteDescription(data.sdp);
      await expect(firstFrame).resolves.toEqual({ width: 320, height: 240 });
      console.info(
        `send-sdp answer after ${tAnswer.toFixed(0)} ms; first decoded frame ${(performance.now() - t0).toFixed(0)} ms after send-sdp`,
      );

      // Another browser sees the stream as a use of the camera and can take it over (§4 camera use).
      const rival = await greeted(other, OTHER_BROWSER);
      await expect(rival.call('check-camera-usage', { camera_id: 'cam-1' })).resolves.toMatchObject({
        ok: true,
        data: { in_use: true, processes: [{ id: 'call-1', kind: 'stream' }] },
      });
      await expect(link.call('check-camera-usage', { camera_id: 'cam-1' })).resolves.toMatchObject({
        data: { in_use: false },
      });
      await expect(link.call('check-health', {})).resolves.toMatchObject({ ok: true, data: { streams: 1 } });

      await expect(link.call('stop-stream', { callId: 'call-1' })).resolves.toMatchObject({
        ok: true,
        data: { stopped: true },
      });
      await expect(link.call('stop-stream', { callId: 'call-1' })).resolves.toMatchObject({
        data: { stopped: false },
      });
      await expect(link.call('check-health', {})).resolves.toMatchObject({ data: { streams: 0 } });
      await expect(rival.call('check-camera-usage', { camera_id: 'cam-1' })).resolves.toMatchObject({
        data: { in_use: false, processes: [] },
      });
    } finally {
      pc.close();
    }
  });

  it('ends streams killed by another browser and tells their viewer', async () => {
    const link = await greeted(browser, BROWSER);
    const pc = new wrtc.RTCPeerConnection({ iceServers: [] });
    try {
      pc.addTransceiver('video', { direction: 'recvonly' });
      await pc.setLocalDescription(await pc.createOffer());
      const reply = await link.call('send-sdp', {
        camera_id: 'cam-2',
        callId: 'call-2',
        sdp: { type: 'offer', sdp: pc.localDescription!.sdp },
      });
      expect(reply).toMatchObject({ ok: true, data: { resolution: { width: 640, height: 480, fps: 30 } } });
      const rival = await greeted(other, OTHER_BROWSER);
      await expect(rival.call('force-kill-stream', { camera_id: 'cam-2' })).resolves.toMatchObject({
        ok: true,
        data: { result: true },
      });
      await expect(link.next((m) => m.type === 'event')).resolves.toMatchObject({
        name: 'stream.status',
        data: { callId: 'call-2', camera_id: 'cam-2', status: 'closed', reason: 'killed' },
      });
      await expect(link.call('check-health', {})).resolves.toMatchObject({ data: { streams: 0 } });
    } finally {
      pc.close();
    }
  });

  it('answers send-sdp for a missing camera with inferenceEngineError', async () => {
    const link = await greeted(browser, BROWSER);
    await expect(
      link.call('send-sdp', { camera_id: 'cam-7', callId: 'call-3', sdp: { type: 'offer', sdp: 'v=0' } }),
    ).resolves.toMatchObject({ ok: false, error: { code: 'inferenceEngineError' } });
  });

  it('registers again with signalling after its socket drops, and takes new links', async () => {
    const before = registrations.filter((id) => id === DEVICE).length;
    clients.get(DEVICE)!.getSocket()!.terminate();
    await expect
      .poll(() => registrations.filter((id) => id === DEVICE).length, { timeout: 15_000, interval: 100 })
      .toBe(before + 1);
    const link = await greeted(browser, BROWSER);
    await expect(link.call('ping', {})).resolves.toMatchObject({ ok: true });
  });
});
