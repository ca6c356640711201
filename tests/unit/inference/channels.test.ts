/**
 * §8 ICE rules of the start connection (src/console/features/inference/channels.ts): a candidate error 401
 * clears the ICE servers and tries again every 10 s (ICE_RETRY_MS); a 701 is only logged. RTCPeerConnection is
 * the one thing faked here (Node has none): a stand-in with the same events, recording each connection's
 * configuration; the device's answer comes from a fake callDevice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ICE_RETRY_MS,
  START_OPEN_RETRIES,
  START_OPEN_RETRY_MS,
  openMetadataChannel,
  openStartChannel,
} from '../../../src/console/features/inference/channels';

class FakeChannel extends EventTarget {
  readyState = 'connecting';
  sent: string[] = [];
  send(text: string) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 'closed';
    this.dispatchEvent(new Event('close'));
  }
  open() {
    this.readyState = 'open';
    this.dispatchEvent(new Event('open'));
  }
}

class FakePc extends EventTarget {
  static all: FakePc[] = [];
  iceGatheringState = 'complete';
  iceConnectionState = 'checking';
  connectionState = 'new';
  localDescription: { type: string; sdp: string } | null = null;
  closed = false;
  channel = new FakeChannel();
  constructor(readonly config: { iceServers: unknown[] }) {
    super();
    FakePc.all.push(this);
  }
  createDataChannel() {
    return this.channel;
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 offer' };
  }
  async setLocalDescription(d: { type: string; sdp: string }) {
    this.localDescription = d;
  }
  async setRemoteDescription() {}
  close() {
    this.closed = true;
    this.channel.close();
  }
  iceError(code: number) {
    this.dispatchEvent(Object.assign(new Event('icecandidateerror'), { errorCode: code }));
  }
}

const SERVERS = [{ urls: 'turn:turn.example:3478', username: 'u', credential: 'p' }];

describe('start connection ICE rules (§8)', () => {
  beforeEach(() => {
    FakePc.all = [];
    vi.useFakeTimers();
    vi.stubGlobal('RTCPeerConnection', FakePc);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function open() {
    const callDevice = vi.fn(async () => ({ callId: 'c1', sdp: { type: 'answer', sdp: 'v=0 answer' } }));
    const events: { type: string }[] = [];
    const stop = openStartChannel(
      { callDevice: callDevice as never, getIceServers: () => SERVERS },
      { deviceId: 'dev-1', callId: 'c1' },
      (e) => events.push(e),
      () => undefined,
    );
    return { callDevice, events, stop };
  }

  it('401: the servers are cleared and the connection is tried again after 10 s, and again after a second 401', async () => {
    const { callDevice, events, stop } = open();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakePc.all).toHaveLength(1);
    expect(FakePc.all[0]!.config.iceServers).toEqual(SERVERS);
    FakePc.all[0]!.iceError(401);
    expect(FakePc.all[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(ICE_RETRY_MS - 1);
    expect(FakePc.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakePc.all).toHaveLength(2);
    expect(FakePc.all[1]!.config.iceServers).toEqual([]);
    expect(callDevice).toHaveBeenCalledTimes(2);
    FakePc.all[1]!.iceError(401);
    await vi.advanceTimersByTimeAsync(ICE_RETRY_MS);
    expect(FakePc.all).toHaveLength(3);
    // A 401 is not a failed start: nothing was reported to the machine.
    expect(events).toEqual([]);
    stop();
    FakePc.all[2]!.iceError(401);
    await vi.advanceTimersByTimeAsync(ICE_RETRY_MS * 2);
    expect(FakePc.all).toHaveLength(3); // stopped: no more retries
  });

  it('701: only logged — the connection stays and nothing is retried', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const { events, stop } = open();
    await vi.advanceTimersByTimeAsync(0);
    FakePc.all[0]!.channel.open();
    FakePc.all[0]!.iceError(701);
    await vi.advanceTimersByTimeAsync(ICE_RETRY_MS * 2);
    expect(FakePc.all).toHaveLength(1);
    expect(FakePc.all[0]!.closed).toBe(false);
    expect(info).toHaveBeenCalledWith(expect.stringContaining('701'));
    expect(events).toEqual([{ type: 'channel.open' }]);
    stop();
    info.mockRestore();
  });

  it('a failed connection is reported (the machine restarts the job with the deep-stream engine)', async () => {
    const { events, stop } = open();
    await vi.advanceTimersByTimeAsync(0);
    const pc = FakePc.all[0]!;
    pc.connectionState = 'failed';
    pc.dispatchEvent(new Event('connectionstatechange'));
    expect(events).toEqual([{ type: 'channel.failed', error: 'The connection to the device failed.' }]);
    stop();
  });

  it('a channel not open 8 s after the answer is offered again, twice at most; the old one says nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { callDevice, events, stop } = open();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS - 1);
    expect(FakePc.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakePc.all).toHaveLength(2);
    expect(FakePc.all[0]!.closed).toBe(true); // its channel's close is not the start's
    expect(callDevice).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('offering again'));
    await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS * (START_OPEN_RETRIES + 2));
    expect(FakePc.all).toHaveLength(1 + START_OPEN_RETRIES);
    expect(events).toEqual([]);
    FakePc.all.at(-1)!.channel.open();
    expect(events).toEqual([{ type: 'channel.open' }]);
    stop();
    warn.mockRestore();
  });

  it('an open channel is not offered again', async () => {
    const { callDevice, events, stop } = open();
    await vi.advanceTimersByTimeAsync(0);
    FakePc.all[0]!.channel.open();
    await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS * 3);
    expect(FakePc.all).toHaveLength(1);
    expect(callDevice).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ type: 'channel.open' }]);
    stop();
  });

  it('a channel that opened before the answer was applied is reported open, and queued requests go out', async () => {
    // Chromium may dispatch the channel's 'open' before setRemoteDescription's promise settles: the event is
    // gone by the time the listeners are attached.
    const sRD = FakePc.prototype.setRemoteDescription;
    FakePc.prototype.setRemoteDescription = async function (this: FakePc) {
      this.channel.open();
    };
    try {
      const callDevice = vi.fn(async () => ({ callId: 'c1', sdp: { type: 'answer', sdp: 'v=0 answer' } }));
      const events: { type: string }[] = [];
      let command: ((c: never) => void) | undefined;
      const stop = openStartChannel(
        { callDevice: callDevice as never, getIceServers: () => [] },
        { deviceId: 'dev-1', callId: 'c1' },
        (e) => events.push(e),
        (listener) => (command = listener as never),
      );
      command!({ callId: 'c1', step: 'file-check', options: { job_id: 'j' } } as never);
      await vi.advanceTimersByTimeAsync(0);
      expect(events).toEqual([{ type: 'channel.open' }]);
      expect(FakePc.all[0]!.channel.sent.map((t) => JSON.parse(t).step)).toEqual(['file-check']);
      await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS * 3);
      expect(FakePc.all).toHaveLength(1); // not offered again
      stop();
    } finally {
      FakePc.prototype.setRemoteDescription = sRD;
    }
  });

  it('the detections channel is offered again when not open 8 s after the answer; the old one ends nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const callDevice = vi.fn(async () => ({ callId: 'm1', sdp: { type: 'answer', sdp: 'v=0 answer' } }));
    const ended: string[] = [];
    const frames: unknown[] = [];
    const stop = openMetadataChannel(
      { callDevice: callDevice as never, getIceServers: () => [] },
      { deviceId: 'dev-1', jobId: 'job-1', callId: 'm1' },
      (meta) => frames.push(meta),
      (error) => ended.push(error),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(FakePc.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS);
    expect(FakePc.all).toHaveLength(2);
    expect(FakePc.all[0]!.closed).toBe(true);
    expect(callDevice).toHaveBeenCalledTimes(2);
    FakePc.all[1]!.channel.open();
    await vi.advanceTimersByTimeAsync(START_OPEN_RETRY_MS * 3);
    expect(FakePc.all).toHaveLength(2);
    expect(ended).toEqual([]);
    stop();
    warn.mockRestore();
  });
});
