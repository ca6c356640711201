/**
 * The demo AI applications (spec §2 routes /nanoowl, /llava, /speed_application, /ibb, /ai-platform; §5 "Chat
 * demo ignores empty messages"; issue 14): device commands over the peer link. Shapes are ours (§7 "Response
 * shapes of most device commands: not shown").
 *
 * Every answer names the engine that produced it (`engine`): `sim` reads the synthetic scene's truth at the
 * frame's time (src/agent/demoApps/), `host` runs a deployed model; an app the device cannot run answers
 * `demo-apps-info` with `available: false` and a reason, and its command fails with code `not_available`.
 *
 * Coordinates are fractions 0..1 of the frame (x right, y down); times are wall-clock ms since the epoch.
 */
import { z } from 'zod';
import { defineCommands } from './command';
import { Id } from './route';

/** The demo apps a device may answer. IBB and the AI platform read the same commands (see README). */
export const DemoAppName = z.enum(['nanoowl', 'llava', 'speed', 'ibb']);
export type DemoAppName = z.infer<typeof DemoAppName>;
export const DEMO_APPS = DemoAppName.options;

/** Error code of a demo command the device cannot run (no engine / no model for it). */
export const DEMO_NOT_AVAILABLE = 'not_available';

/** Which engine answers an app on a device: `sim` (scene truth) or `host` (a deployed model). */
export const DemoEngine = z.object({
  app: DemoAppName,
  engine: z.enum(['sim', 'host']),
  /** The model that answers (e.g. 'owl-vit-b32 (scene truth)'), null when none. */
  model: z.string().max(200).nullable(),
  available: z.boolean(),
  /** Why the app cannot run here (no model deployed…), else null. */
  reason: z.string().max(400).nullable(),
});
export type DemoEngine = z.infer<typeof DemoEngine>;

const CameraId = Id;
/** A point of the frame, fractions 0..1. */
export const FramePoint = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);
/** A line segment drawn on the frame: [[x1, y1], [x2, y2]], fractions 0..1. */
export const FrameLine = z.tuple([FramePoint, FramePoint]);
export type FrameLine = z.infer<typeof FrameLine>;
/** A box of the frame: x, y (top-left), width, height, fractions 0..1. */
export const FrameBox = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** Most text a prompt or chat message may carry, characters. */
export const DEMO_TEXT_MAX = 500;
/** Longest look-back of a speed or IBB measurement window, ms (10 minutes). */
export const DEMO_WINDOW_MAX_MS = 600_000;

/** One NanoOWL detection: which query matched, the scene label, score and box. */
export const OwlDetection = z.object({
  query: z.string().max(DEMO_TEXT_MAX),
  label: z.string().max(100),
  score: z.number().min(0).max(1),
  track_id: z.number().int(),
  box: FrameBox,
});
export type OwlDetection = z.infer<typeof OwlDetection>;

export const ChatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(4000),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** One vehicle timed between the two lines. `speed_kmh` = distance / (t_b − t_a), km/h. */
export const SpeedPass = z.object({
  track_id: z.number().int(),
  label: z.string().max(100),
  /** Colour name of the vehicle ('red', …) where known. */
  colour: z.string().max(40).nullable(),
  plate: z.string().max(40).nullable(),
  /** Wall times the vehicle crossed the first and the second line, ms. */
  t_first: z.number(),
  t_second: z.number(),
  /** 'a→b' when it crossed line A first, 'b→a' otherwise. */
  direction: z.enum(['a→b', 'b→a']),
  speed_kmh: z.number(),
});
export type SpeedPass = z.infer<typeof SpeedPass>;

/** IBB (city operations): what a camera saw in a window. */
export const CitySighting = z.object({
  kind: z.enum(['person', 'vehicle']),
  track_id: z.number().int(),
  /** First and last time it was in view during the window, ms. */
  first_seen: z.number(),
  last_seen: z.number(),
  /** Persons: age band ('18-29'…) and gender where known. */
  age_band: z.string().max(20).nullable(),
  gender: z.string().max(20).nullable(),
  /** Vehicles: licence plate where known. */
  plate: z.string().max(40).nullable(),
  colour: z.string().max(40).nullable(),
});
export type CitySighting = z.infer<typeof CitySighting>;

const Window = {
  camera_id: CameraId,
  /** Start of the window, wall ms; the window ends now (at most DEMO_WINDOW_MAX_MS long). */
  from: z.number().int().min(0),
};

export const demoAppCommands = defineCommands({
  /** Which engine answers each demo app on this device (and the camera's truth is known or not). */
  'demo-apps-info': {
    request: z.object({}).strict(),
    reply: z.object({ apps: z.array(DemoEngine).max(8) }),
  },
  /** NanoOWL: open-vocabulary detection of `prompt` (comma-separated queries) in the camera's frame now. */
  'nanoowl-detect': {
    request: z.object({
      camera_id: CameraId,
      prompt: z.string().trim().min(1).max(DEMO_TEXT_MAX),
      threshold: z.number().min(0).max(1).default(0.3),
    }),
    reply: z.object({
      engine: z.enum(['sim', 'host']),
      model: z.string().max(200),
      /** The frame's wall-clock time, ms. */
      at: z.number(),
      queries: z.array(z.string().max(DEMO_TEXT_MAX)).max(20),
      detections: z.array(OwlDetection).max(100),
    }),
  },
  /**
   * LLaVA: answers the last user message about the camera's frame now. The answer streams as link
   * `progress` messages `{ token }` (in order) before the reply, which holds the whole answer.
   */
  'llava-chat': {
    request: z.object({
      camera_id: CameraId,
      messages: z
        .array(ChatMessage)
        .min(1)
        .max(40)
        .refine((m) => m[m.length - 1]?.role === 'user' && m[m.length - 1]!.content.trim().length > 0, {
          message: 'The last message must be a non-empty user message.',
        }),
    }),
    reply: z.object({
      engine: z.enum(['sim', 'host']),
      model: z.string().max(200),
      at: z.number(),
      answer: z.string().max(8000),
    }),
  },
  /** Speed: vehicles that crossed both lines during the window, with their speeds. */
  'speed-measure': {
    request: z.object({
      ...Window,
      line_a: FrameLine,
      line_b: FrameLine,
      /** Real-world distance between the two lines, metres. */
      distance_m: z.number().positive().max(10_000),
    }),
    reply: z.object({
      engine: z.enum(['sim', 'host']),
      model: z.string().max(200),
      at: z.number(),
      passes: z.array(SpeedPass).max(1000),
    }),
  },
  /** IBB: people (age band, gender) and vehicles (plates) seen during the window. */
  'city-observe': {
    request: z.object(Window),
    reply: z.object({
      engine: z.enum(['sim', 'host']),
      model: z.string().max(200),
      at: z.number(),
      sightings: z.array(CitySighting).max(1000),
    }),
  },
});
