/**
 * The device's demo AI applications (issue 14; spec §2 /nanoowl, /llava, /speed_application, /ibb; §5 "Chat
 * demo ignores empty messages"). One entry per app, each answering on the device's engine:
 *
 * - `sim` devices answer from the synthetic scene's truth at the moment asked (truth.ts): NanoOWL's boxes
 *   (owl.ts), LLaVA's answers (llava.ts, streamed word by word), vehicle speeds between two lines (speed.ts),
 *   the people and vehicles a camera saw (city.ts). A camera that is not synthetic has no truth: its command
 *   fails with `not_available`.
 * - `host` devices answer only with a model for the app deployed (models-installed). Speed and IBB run for real
 *   on a deployed ONNX detector with a tracker (hostWatch.ts; IBB without age, gender or plates). This agent
 *   has no OWL-ViT or LLaVA runner, so on `host` those apps report `available: false` and say which model they
 *   would need, or that the deployed one cannot be run. Nothing is faked on `host`.
 *
 * Errors: CommandError `not_available` (no engine for the app or no truth for the camera), `not_found`
 * (unknown camera), `invalid_payload` (a window longer than DEMO_WINDOW_MAX_MS or in the future).
 */
import {
  DEMO_NOT_AVAILABLE,
  DEMO_WINDOW_MAX_MS,
  type ChatMessage,
  type CitySighting,
  type DemoAppName,
  type DemoEngine,
  type FrameLine,
  type OwlDetection,
  type SpeedPass,
} from '../../protocol/demoApps';
import { LINK_ERROR_CODES } from '../../protocol/link';
import type { InstalledModel } from '../../protocol/models';
import type { CameraDevice } from '../backends/types';
import { CommandError } from '../commands/errors';
import { observeCity } from './city';
import { answerQuestion, tokens } from './llava';
import { detectOpenVocabulary } from './owl';
import {
  createWatchRegistry,
  recordedObjectsAt,
  WATCH_SAMPLE_MS,
  type CameraWatch,
  type WatchDetector,
} from './hostWatch';
import { measurePasses } from './speed';
import { hasTruth, truthAt, type TruthCamera } from './truth';

/** The models the sim engine stands for, as the pages name them. */
export const SIM_MODELS: Record<DemoAppName, string> = {
  nanoowl: 'OWL-ViT B/32 (simulated: scene truth)',
  llava: 'LLaVA 1.5 7B (simulated: scene truth)',
  speed: 'Vehicle tracker (simulated: scene truth)',
  ibb: 'Person attributes + plate reader (simulated: scene truth)',
};

/** What a deployed model's name must contain for an app to run on `host`. */
const HOST_MODEL_PATTERN: Record<DemoAppName, RegExp> = {
  nanoowl: /owl/i,
  llava: /llava/i,
  speed: /track|detect|yolo/i,
  ibb: /track|detect|yolo/i,
};
/** What answers a host app that runs, as its page names it. */
const HOST_RUNS = {
  speed: (m: InstalledModel) => `${m.model_name} v${m.version} (ONNX Runtime)`,
  ibb: (m: InstalledModel) =>
    `${m.model_name} v${m.version} (ONNX Runtime; no age, gender or plate model: those stay empty)`,
};
const HOST_NEEDS: Record<DemoAppName, string> = {
  nanoowl: 'an OWL-ViT ONNX model',
  llava: 'a LLaVA model',
  speed: 'a vehicle detection model',
  ibb: 'a person and vehicle detection model',
};

/** Delay between two streamed LLaVA tokens on the sim engine, ms (a Jetson Orin's ~25 tokens/s). */
export const SIM_TOKEN_MS = 40;

export interface DemoAppsDeps {
  mode: 'sim' | 'host';
  findCamera(cameraId: string): CameraDevice | undefined;
  installed(): Promise<InstalledModel[]>;
  now?: () => number;
  /**
   * `host`: opens a deployed ONNX detector (models-deploy's file of `model`), or null when ONNX Runtime cannot
   * load on this device. Absent: no app runs on `host`.
   */
  openDetector?(model: InstalledModel): Promise<WatchDetector | null>;
}

export interface DeviceDemoApps {
  info(): Promise<DemoEngine[]>;
  detect(
    cameraId: string,
    prompt: string,
    threshold: number,
  ): Promise<{ at: number; model: string; queries: string[]; detections: OwlDetection[] }>;
  chat(
    cameraId: string,
    messages: ChatMessage[],
    onToken: (token: string) => void,
    signal?: AbortSignal,
  ): Promise<{ at: number; model: string; answer: string }>;
  speed(
    cameraId: string,
    from: number,
    lineA: FrameLine,
    lineB: FrameLine,
    distanceM: number,
  ): Promise<{ at: number; model: string; passes: SpeedPass[] }>;
  city(cameraId: string, from: number): Promise<{ at: number; model: string; sightings: CitySighting[] }>;
}

export function createDemoApps(deps: DemoAppsDeps): DeviceDemoApps {
  const now = deps.now ?? Date.now;

  async function info(): Promise<DemoEngine[]> {
    if (deps.mode === 'sim')
      return (Object.keys(SIM_MODELS) as DemoAppName[]).map((app) => ({
        app,
        engine: 'sim',
        model: SIM_MODELS[app],
        available: true,
        reason: null,
      }));
    const models = await deps.installed().catch(() => [] as InstalledModel[]);
    return (Object.keys(SIM_MODELS) as DemoAppName[]).map((app) => hostEntry(app, models));
  }

  /** The deployed model an app would run on `host`: an ONNX one first, else any whose name fits. */
  const hostModel = (app: DemoAppName, models: readonly InstalledModel[]) =>
    models.find((x) => HOST_MODEL_PATTERN[app].test(x.model_name) && x.format === 'onnx') ??
    models.find((x) => HOST_MODEL_PATTERN[app].test(x.model_name));

  /** demo-apps-info's entry for `app` on `host`, from the installed models. */
  function hostEntry(app: DemoAppName, models: readonly InstalledModel[]): DemoEngine {
    const m = hostModel(app, models);
    if ((app === 'speed' || app === 'ibb') && m?.format === 'onnx' && deps.openDetector)
      return { app, engine: 'host', model: HOST_RUNS[app](m), available: true, reason: null };
    return {
      app,
      engine: 'host',
      model: m ? `${m.model_name} v${m.version}` : null,
      available: false,
      reason: m
        ? app === 'speed' || app === 'ibb'
          ? `${m.model_name} is deployed as ${m.format}; this application runs ONNX detectors.`
          : `${m.model_name} is deployed, but this device's agent cannot run it for this application.`
        : `No model for this application is deployed on this device: it needs ${HOST_NEEDS[app]}.`,
    };
  }

  const watches = createWatchRegistry({ now, openDetector: deps.openDetector });

  /** `host` speed and IBB: the camera's watch on the deployed detector (hostWatch.ts), started on first ask. */
  async function hostWatch(
    app: 'speed' | 'ibb',
    cameraId: string,
  ): Promise<{ watch: CameraWatch; model: string }> {
    const camera = deps.findCamera(cameraId);
    if (!camera) throw new CommandError(LINK_ERROR_CODES.notFound, `No camera ${cameraId} on this device.`);
    const models = await deps.installed().catch(() => [] as InstalledModel[]);
    const entry = hostEntry(app, models);
    const model = hostModel(app, models);
    if (!entry.available || !entry.model || !model)
      throw new CommandError(DEMO_NOT_AVAILABLE, entry.reason ?? 'Not available on this device.');
    const watch = await watches.watch(camera, model).catch((err: Error) => {
      throw new CommandError(DEMO_NOT_AVAILABLE, err.message);
    });
    return { watch, model: entry.model };
  }

  async function truthCamera(app: DemoAppName, cameraId: string): Promise<TruthCamera> {
    const camera = deps.findCamera(cameraId);
    if (!camera) throw new CommandError(LINK_ERROR_CODES.notFound, `No camera ${cameraId} on this device.`);
    if (deps.mode !== 'sim') {
      const entry = (await info()).find((e) => e.app === app);
      throw new CommandError(DEMO_NOT_AVAILABLE, entry?.reason ?? 'Not available on this device.');
    }
    if (!hasTruth(camera))
      throw new CommandError(
        DEMO_NOT_AVAILABLE,
        `${camera.name} is not a synthetic camera: the simulated engine only knows synthetic scenes.`,
      );
    return camera;
  }

  function windowOf(from: number): [number, number] {
    const to = now();
    if (from > to)
      throw new CommandError(LINK_ERROR_CODES.invalidPayload, 'from: the window starts in the future.');
    if (to - from > DEMO_WINDOW_MAX_MS)
      throw new CommandError(
        LINK_ERROR_CODES.invalidPayload,
        `from: a window is at most ${DEMO_WINDOW_MAX_MS / 60_000} minutes.`,
      );
    return [from, to];
  }

  return {
    info,
    async detect(cameraId, prompt, threshold) {
      const camera = await truthCamera('nanoowl', cameraId);
      const at = now();
      return {
        at,
        model: SIM_MODELS.nanoowl,
        ...detectOpenVocabulary(truthAt(camera, at), prompt, threshold),
      };
    },
    async chat(cameraId, messages, onToken, signal) {
      const camera = await truthCamera('llava', cameraId);
      const question =
        [...messages]
          .reverse()
          .find((m) => m.role === 'user')
          ?.content.trim() ?? '';
      if (!question)
        throw new CommandError(LINK_ERROR_CODES.invalidPayload, 'messages: the question is empty.');
      const at = now();
      const answer = answerQuestion(truthAt(camera, at), question);
      for (const token of tokens(answer)) {
        if (signal?.aborted) throw new CommandError('canceled', 'Process has been canceled');
        onToken(token);
        await new Promise((r) => setTimeout(r, SIM_TOKEN_MS));
      }
      return { at, model: SIM_MODELS.llava, answer };
    },
    async speed(cameraId, from, lineA, lineB, distanceM) {
      if (deps.mode === 'host') {
        const [a, b] = windowOf(from);
        const { watch, model } = await hostWatch('speed', cameraId);
        watch.lastAsk = b;
        const objectsAt = (t: number) => recordedObjectsAt(watch.samples, t);
        const passes = measurePasses(objectsAt, Math.max(a, watch.startedAt), b, lineA, lineB, distanceM);
        return { at: b, model, passes: passes.map((p) => ({ ...p, colour: null })) };
      }
      const camera = await truthCamera('speed', cameraId);
      const [a, b] = windowOf(from);
      const passes = measurePasses((t) => truthAt(camera, t), a, b, lineA, lineB, distanceM);
      return { at: b, model: SIM_MODELS.speed, passes };
    },
    async city(cameraId, from) {
      if (deps.mode === 'host') {
        const [a, b] = windowOf(from);
        const { watch, model } = await hostWatch('ibb', cameraId);
        watch.lastAsk = b;
        const objectsAt = (t: number) => recordedObjectsAt(watch.samples, t);
        const sightings = observeCity(objectsAt, Math.max(a, watch.startedAt), b, WATCH_SAMPLE_MS);
        return { at: b, model, sightings: sightings.map((x) => ({ ...x, colour: null })) };
      }
      const camera = await truthCamera('ibb', cameraId);
      const [a, b] = windowOf(from);
      return { at: b, model: SIM_MODELS.ibb, sightings: observeCity((t) => truthAt(camera, t), a, b) };
    },
  };
}
