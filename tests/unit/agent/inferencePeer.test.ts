import { describe, expect, it } from 'vitest';
import { channelOfferProblem, withWrongFingerprint } from '../../../src/agent/inference/peer';

const SDP = [
  'v=0',
  'o=- 1 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'a=ice-ufrag:abcd',
  'a=ice-pwd:0123456789abcdef012345',
  'a=fingerprint:sha-256 0A:1B:2C:3D',
  'a=setup:active',
  '',
].join('\r\n');

describe('withWrongFingerprint (sim fault inference-connection)', () => {
  it('changes the fingerprint and nothing else', () => {
    const wrong = withWrongFingerprint(SDP);
    expect(wrong).toContain('a=fingerprint:sha-256 F5:1B:2C:3D');
    expect(wrong).not.toContain('0A:1B:2C:3D');
    expect(wrong.replace('F5:', '0A:')).toBe(SDP);
    // Still an answer a browser parses: credentials and fingerprint are there.
    expect(channelOfferProblem(wrong)).toBeNull();
  });

  it('leaves an SDP without a fingerprint as it is', () => {
    const none = SDP.replace(/a=fingerprint:.*\r\n/, '');
    expect(withWrongFingerprint(none)).toBe(none);
  });
});
