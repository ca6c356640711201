/**
 * The device's inference part (issue 10; spec §3 Job runtime fields and "running stream-engine map", §4
 * "Starting an inference connection", §7 alarm-new and get-stream-engine-port).
 *
 * - The start negotiation (§4 step 5): the browser's data-channel offer is answered (inference-negotiate);
 *   on that channel it asks the stages one by one (ControlRequest: file-check, build-model, prepare-model,
 *   warm-up [+ prepare-recording], start-inference [+ request-metadata]); each runs on the job's engine with
 *   a heartbeat every START_HEARTBEAT_MS (its progress) and ends with a result carrying the call id. The
 *   browser closes the connection after start-inference; a connection that fails or closes mid-way cancels
 *   the preparation.
 * - A started job is a viewer of its camera's feed (StreamManager.watchFrames): every frame the camera's
 *   viewers get is inferred (the sim engines read the frame's true boxes; `host` runs the model, skipping
 *   frames while one is inferred) and the detections go, as InferenceMetadata stamped with the frame's
 *   capture time, to every metadata connection of the job (inference-metadata: one data channel each,
 *   unordered, no retransmits). The job's stream-engine port is registered under its job id.
 * - inference-stop ends a job; the agent's close ends all.
 * - A job a calendar starts (§4 step 4, no console): startScheduled / stopScheduled, in scheduled.ts.
 */
import {
  ControlRequest,
  START_HEARTBEAT_MS,
  START_STEPS,
  type Alarm,
  type ControlMessage,
  type InferenceMetadata,
  type JobRuntime,
  type RunningJob,
  type StartOptions,
  type StartStep,
} from '../../protocol/inference';
import type { IceServer } from '../../protocol';
import { LINK_ERROR_CODES } from '../../protocol';
import { hashSeed } from '../backends/sim/scene';
import type { I420Frame } from '../backends/types';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';
import type { DeviceModels } from '../models';
import type { DetectionsTap } from '../alarms';
import type { AgentPartDeps } from '../parts';
import type { CameraLookup } from '../streams/catalog';
import type { StreamManager } from '../streams/manager';
import type { FrameRunner, InferenceEngine, PreparedJob, StageOutcome } from './engine';
import { createHostEngine } from './host';
import { answerChannelOffer, safeSend, withWrongFingerprint, type ChannelPeer } from './peer';
import { createScheduledStarts, serverJobReporter, type JobStateReporter } from './scheduled';
import { createSimEngine } from './sim';

/** First port of the stream-engine map (DeepStream's RTSP output default). */
export const STREAM_ENGINE_FIRST_PORT = 8554;

export interface InferenceDeps {
  streams: Pick<StreamManager, 'watchFrames'>;
  cameras: CameraLookup;
  models: Pick<DeviceModels, 'installed' | 'dir'>;
  iceServers: () => IceServer[];
  /** ICE transport policy (server's ICE_TRANSPORT_POLICY, issue 15); default 'all'. */
  iceTransportPolicy?: () => 'all' | 'relay';
  /** Stage time scale of the sim engines (tests: 0); default 1. */
  simTimeScale?: number;
  /** Every inferred frame's detections, for the alarms part (src/agent/alarms/, issue 11). */
  onDetections?: DetectionsTap;
  /** Where a scheduled job's §4 events go (default: the server, PUT /api/device/jobs/:id/state). */
  reportJobState?: JobStateReporter;
  /**
   * sim fault `inference-connection` (options.ts SIM_FAULTS): a start connection for the default engine is
   * answered with a wrong DTLS fingerprint, so the browser's peer connection fails (§4 step 7). Default false.
   */
  failDefaultEngineConnection?: boolean;
}

export interface DeviceInference {
  /** §7 alarm-new: replaces the alarms the device knows; returns how many. */
  setAlarms(alarms: Alarm[]): number;
  /** §4 step 2: the engine's error for these options (null: none) and the engines the device offers. */
  check(options: StartOptions): Promise<{
    inferenceEngineError: string | null;
    engines: { default: string; deepStream: string };
  }>;
  /**
   * inference-negotiate: answers the start connection's offer. `engine`: the engine the stages will run on
   * (absent: the device's default; §4 step 7's restart names the deep-stream engine).
   */
  negotiate(callId: string, offerSdp: string, linkId: string, engine?: string): Promise<string>;
  /** inference-metadata: answers a metadata connection's offer for a running job. */
  metadata(callId: string, jobId: string, offerSdp: string, linkId: string): Promise<string>;
  /** inference-stop: false when the job was not running. */
  stop(jobId: string): boolean;
  /** §4 step 4: runs the stages and starts the job with no console, reporting its state (scheduled.ts). */
  startScheduled(options: StartOptions): Promise<void>;
  /** A calendar's stop edge: stops the job and reports it `stopped`; false when it was not running. */
  stopScheduled(jobId: string): boolean;
  /** inference-jobs. */
  jobs(): RunningJob[];
  /** §7 get-stream-engine-port: the running stream-engine map (streamId → port). */
  streamEnginePort(streamId: string): number | null;
  /** Closes the connections opened through a link (it closed); running jobs go on. */
  stopLink(linkId: string): void;
  close(): Promise<void>;
}

interface Running {
  job: PreparedJob;
  engine: InferenceEngine;
  runner: FrameRunner;
  release: () => void;
  port: number;
  startedAt: number;
  seq: number;
  frames: number;
  busy: boolean;
  inferenceMs: number | null;
  detectionsPerS: number | null;
  lastAt: number;
  subscribers: Set<RTCDataChannel>;
}

interface Preparing {
  job: PreparedJob;
  engine: InferenceEngine;
  /** The index in START_STEPS of the next step expected. */
  next: number;
  abort: AbortController;
}

export function createDeviceInference(deps: AgentPartDeps, more: InferenceDeps): DeviceInference {
  const log = deps.log;
  const seed = hashSeed(deps.deviceId);
  const engines = new Map<string, InferenceEngine>();
  if (deps.mode === 'sim') {
    for (const id of ['sim', 'sim-deepstream'] as const)
      engines.set(id, createSimEngine({ id, seed, models: more.models, timeScale: more.simTimeScale }));
  } else {
    engines.set('host', createHostEngine({ models: more.models }));
  }
  const choice =
    deps.mode === 'sim'
      ? { default: 'sim', deepStream: 'sim-deepstream' }
      : { default: 'host', deepStream: 'host' };
  const engineOf = (id: string | null): InferenceEngine => {
    const e = engines.get(id ?? choice.default);
    if (!e)
      throw new CommandError(
        LINK_ERROR_CODES.inferenceEngineError,
        `This device has no ${id} inference engine (it has ${[...engines.keys()].join(', ')}).`,
      );
    return e;
  };

  let alarms: Alarm[] = [];
  const running = new Map<string, Running>();
  const ports = new Map<string, number>();
  const peers = new Map<string, { linkId: string; peer: ChannelPeer }>();
  let closed = false;

  const allocatePort = (): number => {
    const used = new Set(ports.values());
    let p = STREAM_ENGINE_FIRST_PORT;
    while (used.has(p)) p++;
    return p;
  };

  function send(channel: RTCDataChannel, message: ControlMessage): void {
    safeSend(channel, JSON.stringify(message));
  }

  /** Runs one start step with its heartbeat; answers its result on the channel. */
  async function runStep(
    channel: RTCDataChannel,
    callId: string,
    prep: Preparing,
    step: StartStep,
  ): Promise<void> {
    const started = performance.now();
    let progress: number | null = null;
    let detail: string | null = null;
    const beat = setInterval(
      () =>
        send(channel, {
          type: 'heartbeat',
          callId,
          step,
          elapsed_ms: Math.round(performance.now() - started),
          progress,
          detail,
        }),
      START_HEARTBEAT_MS,
    );
    const onProgress = (p: number | null, d: string | null) => {
      progress = p;
      detail = d;
    };
    const signal = prep.abort.signal;
    try {
      let outcome: StageOutcome;
      if (step === 'file-check') outcome = await prep.engine.fileCheck(prep.job, onProgress, signal);
      else if (step === 'build-model') outcome = await prep.engine.buildModel(prep.job, onProgress, signal);
      else if (step === 'prepare-model')
        outcome = await prep.engine.prepareModel(prep.job, onProgress, signal);
      else if (step === 'warm-up') outcome = await prep.engine.warmUp(prep.job, onProgress, signal);
      else outcome = await startJob(prep);
      send(channel, {
        type: 'result',
        callId,
        step,
        ok: true,
        elapsed_ms: Math.round(performance.now() - started),
        detail: outcome.detail,
        error: null,
        ...(outcome.runtime ? { runtime: outcome.runtime } : {}),
      });
    } catch (err) {
      log.warn(`inference ${prep.job.options.job_id}: ${step} failed: ${errorMessage(err)}`);
      send(channel, {
        type: 'result',
        callId,
        step,
        ok: false,
        elapsed_ms: Math.round(performance.now() - started),
        detail: null,
        error: errorMessage(err),
      });
      prep.abort.abort();
    } finally {
      clearInterval(beat);
    }
  }

  /** start-inference: the job becomes a viewer of its camera; its frames go to the engine's runner. */
  async function startJob(prep: Preparing): Promise<StageOutcome> {
    const id = prep.job.options.job_id;
    stop(id);
    const runner = await prep.engine.open(prep.job);
    const port = allocatePort();
    const r: Running = {
      job: prep.job,
      engine: prep.engine,
      runner,
      release: () => undefined,
      port,
      startedAt: Date.now(),
      seq: 0,
      frames: 0,
      busy: false,
      inferenceMs: null,
      detectionsPerS: null,
      lastAt: 0,
      subscribers: new Set(),
    };
    try {
      const watch = more.streams.watchFrames(
        prep.job.options.camera_id,
        `job:${id}`,
        prep.job.options.resolution,
        (frame, t, wall) => onFrame(r, frame, t, wall),
      );
      r.release = watch.release;
    } catch (err) {
      runner.close();
      throw err;
    }
    running.set(id, r);
    ports.set(id, port);
    log.info(`inference job ${id} started`, {
      engine: prep.engine.id,
      camera: prep.job.options.camera_id,
      port,
    });
    const runtime: Partial<JobRuntime> = {
      jobId: id,
      childJobId: `${prep.engine.id}:${port}`,
      port,
      message: `running on ${prep.engine.id}`,
    };
    return { detail: `running on ${prep.engine.id}, stream engine port ${port}`, runtime };
  }

  function onFrame(r: Running, frame: I420Frame, t: number, wall: number): void {
    const seq = ++r.seq;
    if (r.runner.needsPixels) {
      if (r.busy) return; // the model is still on an earlier frame: skip this one
      r.busy = true;
      const copy: I420Frame = { width: frame.width, height: frame.height, data: frame.data.slice() };
      void infer(r, copy, seq, t, wall).finally(() => (r.busy = false));
    } else {
      void infer(r, frame, seq, t, wall);
    }
  }

  async function infer(r: Running, frame: I420Frame, seq: number, t: number, wall: number): Promise<void> {
    const started = performance.now();
    try {
      const detections = await r.runner.detect({ frame, wall, seq });
      const ms = performance.now() - started;
      r.frames++;
      r.inferenceMs = Math.round(ms * 100) / 100;
      const now = Date.now();
      if (r.lastAt) {
        const rate = detections.length / Math.max(0.001, (now - r.lastAt) / 1000);
        r.detectionsPerS = r.detectionsPerS === null ? rate : r.detectionsPerS * 0.9 + rate * 0.1;
      }
      r.lastAt = now;
      more.onDetections?.(r.job.options, frame, detections, wall);
      if (r.subscribers.size === 0) return;
      const meta: InferenceMetadata = {
        type: 'frame',
        job_id: r.job.options.job_id,
        seq,
        t,
        wall,
        width: frame.width,
        height: frame.height,
        inference_ms: r.inferenceMs,
        detections,
      };
      const text = JSON.stringify(meta);
      for (const ch of r.subscribers) safeSend(ch, text);
    } catch (err) {
      log.warn(`inference ${r.job.options.job_id}: frame ${seq}: ${errorMessage(err)}`);
    }
  }

  function stop(jobId: string): boolean {
    const r = running.get(jobId);
    if (!r) return false;
    running.delete(jobId);
    ports.delete(jobId);
    r.release();
    r.runner.close();
    for (const ch of r.subscribers) {
      try {
        ch.close();
      } catch {
        // closed
      }
    }
    log.info(`inference job ${jobId} stopped`);
    return true;
  }

  const scheduled = createScheduledStarts({
    log,
    engineOf,
    camera: (id) => more.cameras.find(id),
    startJob: (job, engine) =>
      startJob({ job, engine, next: START_STEPS.length, abort: new AbortController() }),
    stop,
    report: more.reportJobState ?? serverJobReporter(deps.server, log),
  });

  function remember(callId: string, linkId: string, peer: ChannelPeer): void {
    peers.get(callId)?.peer.close();
    peers.set(callId, { linkId, peer });
  }

  return {
    setAlarms(list) {
      alarms = [...list];
      return alarms.length;
    },

    async check(options) {
      const engine = engines.get(options.engine ?? choice.default);
      if (!engine)
        return {
          inferenceEngineError: `This device has no ${options.engine} inference engine.`,
          engines: choice,
        };
      if (!more.cameras.find(options.camera_id))
        return {
          inferenceEngineError: `Camera ${options.camera_id} does not exist on this device.`,
          engines: choice,
        };
      return { inferenceEngineError: await engine.check(options), engines: choice };
    },

    async negotiate(callId, offerSdp, linkId, engine) {
      if (closed)
        throw new CommandError(LINK_ERROR_CODES.inferenceEngineError, 'The device agent is shutting down');
      log.info(`inference ${callId}: start connection offered (engine ${engine ?? choice.default})`);
      let prep: Preparing | null = null;
      const { sdp, peer } = await answerChannelOffer(
        offerSdp,
        more.iceServers(),
        () => {
          if (peers.get(callId)?.peer === peer) peers.delete(callId);
          // Closed before the job started: the preparation is canceled (a started job runs on).
          prep?.abort.abort();
        },
        (m) => log.info(`inference ${callId}: start connection ${m}`),
        more.iceTransportPolicy?.(),
      );
      remember(callId, linkId, peer);
      void peer.channel.then((channel) => {
        log.info(`inference ${callId}: start channel ${channel.readyState}`);
        let queue = Promise.resolve();
        channel.addEventListener('message', (e) => {
          let req: ControlRequest;
          try {
            req = ControlRequest.parse(JSON.parse(String((e as MessageEvent).data)));
          } catch (err) {
            log.warn(`inference ${callId}: a malformed start message: ${errorMessage(err).slice(0, 200)}`);
            return;
          }
          queue = queue.then(async () => {
            if (!prep || prep.job.options.job_id !== req.options.job_id) {
              const camera = more.cameras.find(req.options.camera_id);
              let engine: InferenceEngine;
              try {
                if (!camera) throw new Error(`Camera ${req.options.camera_id} does not exist on this device`);
                engine = engineOf(req.options.engine);
              } catch (err) {
                send(channel, {
                  type: 'result',
                  callId,
                  step: req.step,
                  ok: false,
                  elapsed_ms: 0,
                  detail: null,
                  error: errorMessage(err),
                });
                return;
              }
              prep = {
                job: { options: req.options, camera, state: {} },
                engine,
                next: 0,
                abort: new AbortController(),
              };
            }
            const expected = START_STEPS[prep.next]?.request;
            if (req.step !== expected || prep.abort.signal.aborted) {
              send(channel, {
                type: 'result',
                callId,
                step: req.step,
                ok: false,
                elapsed_ms: 0,
                detail: null,
                error: prep.abort.signal.aborted
                  ? 'Process has been canceled'
                  : `Step ${req.step} asked before ${expected ?? 'nothing (the job has started)'}`,
              });
              return;
            }
            prep.next++;
            await runStep(channel, callId, prep, req.step);
          });
        });
      });
      const faulty =
        more.failDefaultEngineConnection &&
        choice.default !== choice.deepStream &&
        (engine ?? choice.default) === choice.default;
      if (faulty)
        log.warn(`inference ${callId}: sim fault inference-connection: answering with a wrong fingerprint`);
      return faulty ? withWrongFingerprint(sdp) : sdp;
    },

    async metadata(callId, jobId, offerSdp, linkId) {
      const r = running.get(jobId);
      if (!r)
        throw new CommandError(LINK_ERROR_CODES.notFound, `Job ${jobId} is not running on this device.`);
      let channel: RTCDataChannel | null = null;
      const { sdp, peer } = await answerChannelOffer(
        offerSdp,
        more.iceServers(),
        () => {
          if (peers.get(callId)?.peer === peer) peers.delete(callId);
          if (channel) running.get(jobId)?.subscribers.delete(channel);
        },
        (m) => log.info(`inference ${callId}: metadata connection ${m}`),
        more.iceTransportPolicy?.(),
      );
      remember(callId, linkId, peer);
      void peer.channel.then((ch) => {
        channel = ch;
        const job = running.get(jobId);
        if (!job) return peer.close();
        const add = () => job.subscribers.add(ch);
        if (ch.readyState === 'open') add();
        else ch.addEventListener('open', add);
        ch.addEventListener('close', () => job.subscribers.delete(ch));
      });
      return sdp;
    },

    stop,
    startScheduled: scheduled.start,
    stopScheduled: scheduled.stop,

    jobs: () =>
      [...running.entries()].map(([id, r]) => ({
        job_id: id,
        camera_id: r.job.options.camera_id,
        engine: r.engine.id,
        port: r.port,
        started_at: r.startedAt,
        frames: r.frames,
        inference_ms: r.inferenceMs,
        detections_per_s: r.detectionsPerS === null ? null : Math.round(r.detectionsPerS * 10) / 10,
      })),

    streamEnginePort: (streamId) => ports.get(streamId) ?? null,

    stopLink(linkId) {
      for (const [id, p] of [...peers]) {
        if (p.linkId !== linkId) continue;
        peers.delete(id);
        p.peer.close();
      }
    },

    async close() {
      closed = true;
      scheduled.close();
      for (const p of peers.values()) p.peer.close();
      peers.clear();
      for (const id of [...running.keys()]) stop(id);
    },
  };
}
