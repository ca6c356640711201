/**
 * Links closed while their send-sdp run (the fuzz "link churn", which crashed the agent with SIGSEGV in wrtc):
 * a start whose link closes is refused at its next step and leaves nothing behind; offers that cannot work
 * are refused before a peer connection or a capture is made; and a churn of links, in a child process (a
 * native crash kills the process it runs in), ends with the process alive and no stream left over.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CameraDevice } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { StreamManager } from '../../../src/agent/streams/manager';
import { offerProblem } from '../../../src/agent/streams/sdp';
import { wrtc } from '../../../src/agent/wrtc';
import { CountingCamera } from './helpers';

const GARBAGE = 'v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\n';

function setup() {
  const camera = new CountingCamera('dev-churn', 1);
  const cameras: CameraDevice[] = [camera];
  const manager = new StreamManager(
    { find: (id) => cameras.find((c) => c.cameraId === id) },
    { iceServers: () => [], logger: silentLogger, iceGatheringWaitMs: 300 },
  );
  return { camera, manager };
}

async function realOffer(): Promise<string> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const sdp = pc.localDescription!.sdp;
  pc.close();
  return sdp;
}

describe('send-sdp on a closing link', () => {
  it('refuses offers that cannot work before making a peer connection or starting a capture', async () => {
    expect(offerProblem(GARBAGE)).toBe('The offer has no ICE credentials');
    expect(offerProblem('v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n')).toBe('The offer has no video section');
    expect(offerProblem(await realOffer())).toBeNull();
    const { camera, manager } = setup();
    const req = { callId: 'c', cameraId: 'cam-1', browserId: 'web-a', linkId: 'link-a' };
    await expect(manager.start({ ...req, offerSdp: GARBAGE })).rejects.toMatchObject({
      code: 'inferenceEngineError',
      message: 'The offer has no ICE credentials',
    });
    expect(camera.started).toBe(0);
    manager.closeAll();
  });

  it('refuses a start whose link closes while it negotiates, and leaves no stream or capture', async () => {
    const { camera, manager } = setup();
    const offerSdp = await realOffer();
    const starts = ['a', 'b', 'c'].map((id) =>
      manager.start({ callId: id, cameraId: 'cam-1', offerSdp, browserId: 'web-a', linkId: 'link-a' }),
    );
    // Another link's stream is not touched.
    const other = manager.start({
      callId: 'x',
      cameraId: 'cam-1',
      offerSdp,
      browserId: 'web-b',
      linkId: 'link-b',
    });
    expect(manager.stopLink('link-a')).toBe(0); // none registered yet: they are cancelled instead
    for (const s of starts) await expect(s).rejects.toMatchObject({ message: 'The link closed' });
    await expect(other).resolves.toMatchObject({ sdp: { type: 'answer' } });
    expect(manager.streamsOfCamera('cam-1').map((s) => s.callId)).toEqual(['x']);
    expect(camera.running).toBe(1);
    manager.closeAll();
    expect(camera.running).toBe(0);
  });

  it('survives a churn of links closed while their streams start, pause and resume (child process)', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'churnChild.ts')], {
      cwd: path.join(__dirname, '../../..'),
      env: { ...process.env, CHURN_SECONDS: '4' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const summary = child.stdout.trim().split('\n').pop();
    console.info(`link churn: ${summary}`);
    expect({ signal: child.signal, status: child.status, stderr: child.stderr.slice(-2000) }).toEqual({
      signal: null,
      status: 0,
      stderr: '',
    });
    expect(JSON.parse(summary ?? '{}')).toMatchObject({ left: 0 });
  }, 90_000);
});
