/**
 * The device's demo AI applications (issue 14; spec §2 /nanoowl, /llava, /speed_application, /ibb; §5 "Chat
 * demo ignores empty messages"). One entry per app, each answering on the device's engine:
 *
 * - `sim` devices answer from the synthetic scene's truth at the moment asked (truth.ts): NanoOWL's boxes
 *   (owl.ts), LLaVA's answers (llava.ts, streamed word by word), vehicle speeds between two lines (speed.ts),
 *   the people and vehicles a camera saw (city.ts). A camera that is not synthetic has no truth: its command
 *   fails with `not_available`.
 * - `host` devices answer only with a model for the app deployed (models-installed); this agent has no
 *   OWL-ViT, LLaVA or tracker runner yet, so on `host` every app reports `available: false` and says which
 *   model it would need, or that the deployed one cannot be run yet. Nothing is faked on `host`.
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
  ibb: /plate|attribute|demograph/i,
};
const HOST_NEEDS: Record<DemoAppName, string> = {
  nanoowl: 'an OWL-ViT ONNX model',
  llava: 'a LLaVA model',
  speed: 'a vehicle detection model',
  ibb: 'a person-attribute and plate-reading model',
};

/** Delay between two streamed LLaVA tokens on the sim engine, ms (a Jetson Orin's ~25 tokens/s). */
export const SIM_TOKEN_MS = 40;

export interface DemoAppsDeps {
  mode: 'sim' | 'host';
  findCamera(cameraId: string): CameraDevice | undefined;
  installed(): Promise<InstalledModel[]>;
  now?: () => number;
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
    return (Object.keys(SIM_MODELS) as DemoAppName[]).map((app) => {
      const m = models.find((x) => HOST_MODEL_PATTERN[app].test(x.model_name));
      return {
        app,
        engine: 'host',
        model: m ? `${m.model_name} v${m.version}` : null,
        available: false,
        reason: m
          ? `${m.model_name} is deployed, but this device's agent cannot run it for this application yet.`
          : `No model for this application is deployed on this device: it needs ${HOST_NEEDS[app]}.`,
      };
    });
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
      const camera = await truthCamera('speed', cameraId);
      const [a, b] = windowOf(from);
      const passes = measurePasses((t) => truthAt(camera, t), a, b, lineA, lineB, distanceM);
      return { at: b, model: SIM_MODELS.speed, passes };
    },
    async city(cameraId, from) {
      const camera = await truthCamera('ibb', cameraId);
      const [a, b] = windowOf(from);
      return { at: b, model: SIM_MODELS.ibb, sightings: observeCity((t) => truthAt(camera, t), a, b) };
    },
  };
}
