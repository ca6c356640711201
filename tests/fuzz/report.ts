/** What a fuzz run saw: counts per route / process / message type, outcomes, latencies, failures. */

export type Area = 'rest' | 'commands' | 'signalling' | 'liveness';

/** One broken promise, with what it takes to replay it. */
export interface Failure {
  area: Area;
  /** Route name, process, or signalling message type. */
  target: string;
  /** Case number in its area (replay: same seed, same number). */
  index: number;
  /** The mutation, e.g. 'wrong-type:string@streams.0.page'. */
  label: string;
  /** What went wrong. */
  problem: string;
  /** The input, clipped (requests: method, path, headers, body). */
  input: string;
  /** The known defect (known.ts) this failure belongs to. */
  known?: string;
}

export interface AreaStats {
  cases: number;
  /** Cases per route / process / message type. */
  per: Record<string, number>;
  /** Outcomes seen: HTTP statuses, reply codes ('ok', 'invalid_payload', …). */
  outcomes: Record<string, number>;
  maxLatencyMs: number;
  durationMs: number;
  /** The slowest cases: target, label, ms. */
  slowest: { target: string; label: string; ms: number }[];
}

const MAX_FAILURES_KEPT = 50;

/** Clips a text for a report: long runs are shown with their length. */
export function clip(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

export class Recorder {
  readonly areas: Record<Area, AreaStats> = {
    rest: emptyStats(),
    commands: emptyStats(),
    signalling: emptyStats(),
    liveness: emptyStats(),
  };
  readonly failures: Failure[] = [];
  failureCount = 0;
  /** Failures grouped by area, target and the start of the problem, with counts (all of them, not only the kept). */
  readonly failureKinds: Record<string, number> = {};

  /** Failures no known defect explains. */
  unexplained = 0;
  /** Failures per known defect. */
  readonly knownCounts: Record<string, number> = {};
  private readonly keptPerKnown: Record<string, number> = {};

  /** `classify` names the known defect a failure belongs to (known.ts), if any. */
  constructor(
    readonly seed: number,
    private readonly classify: (f: Failure) => string | undefined = () => undefined,
  ) {}

  count(area: Area, target: string, outcome: string, latencyMs: number, label = ''): void {
    const a = this.areas[area];
    if (a.slowest.length < 5 || latencyMs > a.slowest[a.slowest.length - 1]!.ms) {
      a.slowest.push({ target, label: clip(label, 120), ms: Math.round(latencyMs) });
      a.slowest.sort((x, y) => y.ms - x.ms);
      a.slowest.length = Math.min(a.slowest.length, 5);
    }
    a.cases++;
    a.per[target] = (a.per[target] ?? 0) + 1;
    a.outcomes[outcome] = (a.outcomes[outcome] ?? 0) + 1;
    if (latencyMs > a.maxLatencyMs) a.maxLatencyMs = Math.round(latencyMs);
  }

  fail(f: Failure, maxInput = 600): void {
    this.failureCount++;
    const kind = `${f.area} | ${f.target} | ${f.problem.replace(/\d+/g, 'N').slice(0, 60)}`;
    this.failureKinds[kind] = (this.failureKinds[kind] ?? 0) + 1;
    const known = this.classify(f);
    if (!known) this.unexplained++;
    else this.knownCounts[known] = (this.knownCounts[known] ?? 0) + 1;
    // Keep every kind in view: at most 5 failures of each known defect, the rest for the unexplained.
    const keep = known ? (this.keptPerKnown[known] ?? 0) < 5 : true;
    if (keep && this.failures.length < MAX_FAILURES_KEPT) {
      if (known) this.keptPerKnown[known] = (this.keptPerKnown[known] ?? 0) + 1;
      this.failures.push({ ...f, known, input: clip(f.input, maxInput) });
    }
  }

  /** The run as one JSON-able object. */
  summary(extra: Record<string, unknown> = {}) {
    return {
      seed: this.seed,
      ...extra,
      rest: this.areas.rest,
      commands: this.areas.commands,
      signalling: this.areas.signalling,
      liveness: this.areas.liveness,
      failure_count: this.failureCount,
      unexplained_failures: this.unexplained,
      failure_kinds: this.failureKinds,
      failures: this.failures,
    };
  }
}

function emptyStats(): AreaStats {
  return { cases: 0, per: {}, outcomes: {}, maxLatencyMs: 0, durationMs: 0, slowest: [] };
}

/** Runs `task(i)` for i in [0, n) with at most `concurrency` at a time. */
export async function pool(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

/** Whether `body` is an error answer `{ code: string, message: string }`. */
export const isErrorShape = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as { code?: unknown }).code === 'string' &&
  typeof (body as { message?: unknown }).message === 'string';
