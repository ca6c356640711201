import { describe, expect, it } from 'vitest';
import { capVideoBitrate, maxVideoKbps } from '../../../src/agent/streams/sdp';

const OFFER = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'b=AS:30000',
  'a=rtpmap:96 VP8/90000',
  '',
].join('\r\n');

describe('send limits in the offer', () => {
  it('puts one b=AS right after the c= line of every video section, replacing the browser’s', () => {
    const out = capVideoBitrate(OFFER, 1198);
    expect(out.split('\r\n')).toEqual([
      'v=0',
      'o=- 1 2 IN IP4 127.0.0.1',
      's=-',
      't=0 0',
      'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
      'c=IN IP4 0.0.0.0',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'c=IN IP4 0.0.0.0',
      'b=AS:1198',
      'a=rtpmap:96 VP8/90000',
      '',
    ]);
    expect(() => capVideoBitrate(OFFER, 0)).toThrow(/positive integer/);
  });

  it('scales the cap with the resolution: 1.2 Mbit/s at 640×480@30, within 200–4000 kbit/s', () => {
    const r = (width: number, height: number, fps = 30) => ({ pixel_format: 'I420', width, height, fps });
    expect(maxVideoKbps(r(640, 480))).toBe(1198);
    expect(maxVideoKbps(r(320, 240))).toBe(300);
    expect(maxVideoKbps(r(160, 120, 5))).toBe(200);
    expect(maxVideoKbps(r(3840, 2160))).toBe(4000);
  });
});
