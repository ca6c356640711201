/**
 * Simulated logs of a simulated device (the `sim` catalogue): topics `client` (agent, updater),
 * `stream-engine` (one subtopic per camera), `inference` (engine, models) and `system` (syslog, kern.log).
 * Lines look like the real thing — `2026-11-23T17:40:00.123Z INFO stream-engine[cam-1]: …` — with the time
 * they are written at; their content is drawn from per-topic templates by a seeded generator, so a log's
 * history is the same each time it is asked. A followed log writes `simRate` lines per second (default: the
 * topic's pace), on a timer of at most 20 ms steps.
 */
import type { LogTopic } from '../../protocol/logs';
import { mulberry32 } from '../backends/sim/random';
import type { LogCatalogue, LogSource } from './source';
import { noLogFile } from './source';

interface SimTopic {
  topic: string;
  subtopics: string[];
  /** Lines per second when followed. */
  rate: number;
  lines: readonly string[];
}

const LEVELS = ['INFO', 'INFO', 'INFO', 'INFO', 'DEBUG', 'WARN', 'INFO', 'ERROR'] as const;

const TEMPLATES: Record<string, readonly string[]> = {
  client: [
    'heartbeat sent to the server (rtt {n} ms)',
    'link from browser {id} ready',
    'camera list refreshed: {n} cameras',
    'metrics sampled: cpu {p}% gpu {p}% ram {p}%',
    'checking for client updates: up to date',
    'signalling reconnected after {n} ms',
    'disk usage {p}% of /',
  ],
  'stream-engine': [
    'frame {n} encoded (h264, {n} kbit/s)',
    'keyframe requested by viewer {id}',
    'bitrate adapted to {n} kbit/s',
    'capture latency {n} ms',
    'dropped {n} frames (encoder busy)',
    'viewer {id} joined; 1 viewer',
  ],
  inference: [
    'batch {n}: {n} detections in {n} ms',
    'model yolov8n loaded in {n} ms (TensorRT fp16)',
    'gpu memory {p}% used',
    'queue depth {n}',
    'tracker: {n} objects tracked',
  ],
  system: [
    'systemd[1]: Started Session {n} of user edge.',
    'kernel: [{n}.{n}] nvgpu: 17000000.gpu  gk20a_pmu_isr: pmu state {n}',
    'CRON[{n}]: (root) CMD (/usr/lib/edge/rotate-logs)',
    'sshd[{n}]: Accepted publickey for edge from 10.0.0.{n}',
    'NetworkManager[{n}]: <info> device (wlan0): state change: activated',
  ],
};

const hash = (s: string): number =>
  [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261);

/** One simulated line written at `at` (ms since the epoch). */
export function simLine(
  topic: string,
  subtopic: string,
  lines: readonly string[],
  at: number,
  r: () => number,
): string {
  const template = lines[Math.floor(r() * lines.length)]!;
  const level = LEVELS[Math.floor(r() * LEVELS.length)]!;
  const text = template
    .replace(/\{n\}/g, () => String(Math.floor(r() * 5000)))
    .replace(/\{p\}/g, () => String(Math.floor(r() * 100)))
    .replace(/\{id\}/g, () => Math.floor(r() * 0xffffff).toString(16));
  return `${new Date(at).toISOString()} ${level} ${topic}[${subtopic}]: ${text}`;
}

/** The sim catalogue; `cameraIds` are the device's cameras (stream-engine subtopics). */
export function createSimCatalogue(cameraIds: readonly string[]): LogCatalogue {
  const table: SimTopic[] = [
    { topic: 'client', subtopics: ['agent', 'updater'], rate: 1, lines: TEMPLATES.client! },
    {
      topic: 'stream-engine',
      subtopics: cameraIds.length > 0 ? [...cameraIds].sort() : ['engine'],
      rate: 4,
      lines: TEMPLATES['stream-engine']!,
    },
    { topic: 'inference', subtopics: ['engine', 'models'], rate: 2, lines: TEMPLATES.inference! },
    { topic: 'system', subtopics: ['kern.log', 'syslog'], rate: 0.5, lines: TEMPLATES.system! },
  ];
  return {
    topics: async (): Promise<LogTopic[]> =>
      table.map((t) => ({ topic: t.topic, subtopics: [...t.subtopics] })),
    async open(topic, subtopic, options) {
      const t = table.find((x) => x.topic === topic);
      if (!t || !t.subtopics.includes(subtopic)) throw noLogFile(topic, subtopic);
      return simSource(t, subtopic, options.simRate ?? t.rate);
    },
  };
}

function simSource(t: SimTopic, subtopic: string, rate: number): LogSource {
  const openedAt = Date.now();
  const seed = hash(`${t.topic}/${subtopic}`);
  return {
    async tail(count) {
      const r = mulberry32(seed);
      const step = 1000 / t.rate;
      return Array.from({ length: count }, (_, i) =>
        simLine(t.topic, subtopic, t.lines, openedAt - (count - i) * step, r),
      );
    },
    follow(onLines) {
      const r = mulberry32(seed ^ openedAt);
      const tickMs = Math.max(20, Math.min(250, 1000 / rate));
      let last = Date.now();
      let owed = 0;
      const timer = setInterval(() => {
        const now = Date.now();
        owed += ((now - last) * rate) / 1000;
        last = now;
        const n = Math.floor(owed);
        if (n <= 0) return;
        owed -= n;
        onLines(Array.from({ length: n }, () => simLine(t.topic, subtopic, t.lines, now, r)));
      }, tickMs);
      timer.unref?.();
      return () => clearInterval(timer);
    },
    close: async () => undefined,
  };
}
