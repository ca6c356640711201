import { describe, expect, it } from 'vitest';
import { recordingFileName, summariseStats } from '../../../src/console/features/cameras/streamMedia';
import { streamClosedEvent } from '../../../src/console/features/cameras/streamSession';

const report = (at: number, bytes: number, frames: number) => [
  {
    id: 'in',
    type: 'inbound-rtp',
    kind: 'video',
    timestamp: at,
    frameWidth: 640,
    frameHeight: 480,
    bytesReceived: bytes,
    framesDecoded: frames,
    packetsLost: 2,
    codecId: 'c1',
  },
  { id: 'c1', type: 'codec', mimeType: 'video/VP8' },
  { id: 'p', type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.004 },
];

describe('stream stats overlay', () => {
  it('reads resolution, codec, round trip and packets lost from one report', () => {
    const { stats } = summariseStats(report(1_000, 0, 0), null);
    expect(stats).toMatchObject({ width: 640, height: 480, codec: 'VP8', rttMs: 4, packetsLost: 2 });
    expect(stats.bitrateKbps).toBeNull();
  });

  it('computes bitrate and frames per second from the previous sample', () => {
    const first = summariseStats(report(1_000, 0, 0), null);
    const { stats } = summariseStats(report(3_000, 250_000, 60), first.memo);
    expect(stats.bitrateKbps).toBe(1000);
    expect(stats.fps).toBe(30);
  });
});

describe('recording file name', () => {
  it('is safe for every OS and ends in .webm', () => {
    expect(recordingFileName('Camera 0 / hall', new Date('2025-01-02T03:04:05Z'))).toBe(
      'Camera_0_hall-2025-01-02T03-04-05.webm',
    );
  });
});

describe('agent stream.status events', () => {
  it('recognises a closed stream by callId and ignores anything else', () => {
    expect(
      streamClosedEvent('stream.status', { callId: 'c1', status: 'closed', reason: 'camera gone' }),
    ).toEqual({
      callId: 'c1',
      reason: 'camera gone',
    });
    expect(streamClosedEvent('stream.status', { callId: 'c1', status: 'open' })).toBeNull();
    expect(streamClosedEvent('other', { callId: 'c1', status: 'closed' })).toBeNull();
    expect(streamClosedEvent('stream.status', null)).toBeNull();
  });
});
