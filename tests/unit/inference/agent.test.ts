/**
 * The device's inference part (src/agent/inference/) with real wrtc peer connections on loopback: the §4 step 5
 * stages over the start channel (heartbeats, results with the call id, order enforced), a job that watches its
 * camera's feed, detections on a metadata channel that are the synthetic scene's true boxes, the stream-engine
 * map (get-stream-engine-port), stop, and the sim engine's §4 step 2 error for a model it cannot run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import { sceneObjectsAt } from '../../../src/agent/backends/sim/scene';
import { createDeviceInference, type DeviceInference } from '../../../src/agent/inference';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { StreamManager } from '../../../src/agent/streams/manager';
import { wrtc } from '../../../src/agent/wrtc';
import {
  ControlMessage,
  InferenceMetadata,
  START_STEPS,
  type StartOptions,
} from '../../../src/protocol/inference';

const camera = new SimCamera('dev-test', 1);
const lookup = { find: (id: string) => (id === camera.cameraId ? camera : undefined) };
const JOB = '6f1e2b0c-8f0e-4c43-9c77-0d7b0a3b1c11';

const options = (over: Partial<StartOptions['application']> = {}): StartOptions => ({
  job_id: JOB,
  job_name: 'lobby',
  application: {
    id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
    name: 'people',
    task: 'object-detection',
    format: 'onnx',
    classes: [],
    model_classes: ['person', 'car', 'ball'],
    tracker: 'none',
    fps: 30,
    ...over,
  },
  model: { model_id: 'M1', name: 'detector', version: 1 },
  camera_id: camera.cameraId,
  resolution: { pixel_format: 'I420', width: 320, height: 240, fps: 30 },
  threshold: 0.3,
  recording: false,
  engine: null,
});

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(): DeviceInference {
  const streams = new StreamManager(lookup, { iceServers: () => [], logger: silentLogger });
  const deps = {
    mode: 'sim',
    deviceId: 'dev-test',
    label: 'Test',
    stateDir: '/tmp',
    log: silentLogger,
    broadcast: () => undefined,
  } as unknown as AgentPartDeps;
  const inference = createDeviceInference(deps, {
    streams,
    cameras: lookup,
    models: { installed: async () => [], dir: '/tmp' },
    iceServers: () => [],
    simTimeScale: 0.2,
  });
  cleanups.push(
    () => streams.closeAll(),
    () => inference.close(),
  );
  return inference;
}

/** A browser-like peer with one data channel; returns it once open. */
async function channelPeer(
  answer: (offer: string) => Promise<string>,
  init?: RTCDataChannelInit,
): Promise<RTCDataChannel> {
  const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
  cleanups.push(() => pc.close());
  const dc = pc.createDataChannel('inference', init);
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
  });
  await pc.setRemoteDescription({ type: 'answer', sdp: await answer(pc.localDescription!.sdp) });
  await new Promise<void>((resolve) =>
    dc.readyState === 'open' ? resolve() : (dc.onopen = () => resolve()),
  );
  return dc;
}

function messages(dc: RTCDataChannel) {
  const got: ControlMessage[] = [];
  const waiters: (() => void)[] = [];
  dc.onmessage = (e) => {
    got.push(ControlMessage.parse(JSON.parse(String(e.data))));
    waiters.splice(0).forEach((w) => w());
  };
  return {
    got,
    async result(step: string) {
      for (;;) {
        const r = got.find((m) => m.type === 'result' && m.step === step);
        if (r && r.type === 'result') return r;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

const iou = (a: number[], b: number[]) => {
  const x1 = Math.max(a[0]!, b[0]!);
  const y1 = Math.max(a[1]!, b[1]!);
  const x2 = Math.min(a[0]! + a[2]!, b[0]! + b[2]!);
  const y2 = Math.min(a[1]! + a[3]!, b[1]! + b[3]!);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  return inter / (a[2]! * a[3]! + b[2]! * b[3]! - inter);
};

describe('device inference (sim engine, real wrtc)', () => {
  it('walks the start stages, runs the job and sends the scene’s true boxes as metadata', async () => {
    const inference = setup();
    expect(await inference.check(options())).toEqual({
      inferenceEngineError: null,
      engines: { default: 'sim', deepStream: 'sim-deepstream' },
    });
    const dc = await channelPeer((sdp) => inference.negotiate('call-1', sdp, 'link-1'));
    const inbox = messages(dc);
    // A step out of order is refused, with the call id.
    dc.send(JSON.stringify({ type: 'request', callId: 'call-1', step: 'build-model', options: options() }));
    const refused = await inbox.result('build-model');
    expect(refused).toMatchObject({ ok: false, callId: 'call-1' });
    expect(refused.error).toContain('before file-check');
  });

  it('runs every stage in order, then streams detections matching the scene', async () => {
    const inference = setup();
    const dc = await channelPeer((sdp) => inference.negotiate('call-2', sdp, 'link-1'));
    const inbox = messages(dc);
    for (const { request } of START_STEPS) {
      dc.send(JSON.stringify({ type: 'request', callId: 'call-2', step: request, options: options() }));
      const r = await inbox.result(request);
      expect(r, `${request}: ${r.error}`).toMatchObject({ ok: true, callId: 'call-2', step: request });
    }
    const started = await inbox.result('start-inference');
    expect(started.runtime).toMatchObject({ jobId: JOB, port: 8554 });
    expect(inference.streamEnginePort(JOB)).toBe(8554);
    expect(inference.jobs()).toMatchObject([{ job_id: JOB, engine: 'sim', port: 8554 }]);

    const meta = await channelPeer((sdp) => inference.metadata('meta-1', JOB, sdp, 'link-1'), {
      ordered: false,
      maxRetransmits: 0,
    });
    const frames: InferenceMetadata[] = [];
    await new Promise<void>((resolve) => {
      meta.onmessage = (e) => {
        frames.push(InferenceMetadata.parse(JSON.parse(String(e.data))));
        if (frames.length === 20) resolve();
      };
    });
    const ious: number[] = [];
    for (const f of frames) {
      expect(f.width).toBe(320);
      const truth = sceneObjectsAt(camera.scene, f.width, f.height, f.wall);
      expect(f.detections.length).toBe(truth.length);
      for (const d of f.detections) {
        const tb = truth[d.track_id - 1]!;
        expect(d.class_name).toBe(tb.label);
        expect(d.score).toBeGreaterThanOrEqual(0.3);
        ious.push(iou(d.box, [tb.x / 320, tb.y / 240, tb.width / 320, tb.height / 240]));
      }
    }
    ious.sort((a, b) => a - b);
    // The boxes are the drawn frame's (drawn a few ms before `wall`): nearly identical to the scene at `wall`.
    expect(ious[Math.floor(ious.length / 2)]).toBeGreaterThan(0.9);

    expect(inference.stop(JOB)).toBe(true);
    expect(inference.stop(JOB)).toBe(false);
    expect(inference.streamEnginePort(JOB)).toBeNull();
  }, 20_000);

  it('reports an engine error for a model the sim engine cannot run (§4 step 2)', async () => {
    const inference = setup();
    const r = await inference.check(options({ task: 'llm', format: 'gguf' }));
    expect(r.inferenceEngineError).toMatch(/runs detection models/);
  });

  it('refuses metadata for a job that is not running', async () => {
    const inference = setup();
    await expect(channelPeer((sdp) => inference.metadata('m', JOB, sdp, 'l'))).rejects.toThrow(/not running/);
  });
});
