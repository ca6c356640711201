/**
 * One fuzz run (issue 7 §3): a real server, user, device and agent (env.ts); REST cases for every route,
 * device-command cases for every process, hostile signalling to the device; then everything must still
 * answer. Returns one JSON-able report: counts per route / process / message type, outcomes, the slowest
 * cases, and every failure with the seed and case number that replay it.
 */
import { agentAnswersPing, fuzzCommands, fuzzLinkChurn, type FloodSpec } from './commands';
import { startFuzzEnv } from './env';
import { KNOWN_DEFECTS, knownDefectOf } from './known';
import { Recorder } from './report';
import { fuzzRest, restAlive } from './rest';
import { fuzzSignalling } from './signalling';

export interface FuzzOptions {
  seed: number;
  rest: number;
  commands: number;
  /** Command floods: `count` requests of one process at once. */
  floods: FloodSpec[];
  /** Hostile signalling frames, and the size of the floods after them. */
  signalling: number;
  signallingFlood: number;
  /** Seconds of link churn (links closed while their send-sdp run); 0 for none. */
  churnSeconds?: number;
  /** Progress lines (stderr). */
  log?: (line: string) => void;
}

export type FuzzReport = ReturnType<Recorder['summary']> & {
  duration_ms: number;
  known_defects: { id: string; note: string; failures: number }[];
};

/** The agent process died: the rest of the run cannot happen. */
class AgentCrash extends Error {}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  const recorder = new Recorder(options.seed, knownDefectOf);
  const t0 = performance.now();
  const env = await startFuzzEnv();
  log(`fuzz: seed ${options.seed}, server ${env.server.url}, agent ${env.agent.deviceId}`);
  try {
    // REST and commands side by side (REST waits on the database, commands on the agent).
    await Promise.all([
      fuzzRest(env, options.rest, options.seed, recorder).then(() =>
        log(`fuzz: REST done (${recorder.areas.rest.durationMs} ms)`),
      ),
      fuzzCommands(env, options.commands, options.seed, recorder, options.floods).then(() =>
        log(`fuzz: commands done (${recorder.areas.commands.durationMs} ms)`),
      ),
    ]);
    if (env.agent.exited()) throw new AgentCrash();
    const before = await env.openOwnerLink();
    await fuzzSignalling(env, options.signalling, options.signallingFlood, options.seed, recorder, before);
    log(`fuzz: signalling done (${recorder.areas.signalling.durationMs} ms)`);

    // Everything still answers.
    const checks: [string, () => Promise<string | null>][] = [
      ['server', () => restAlive(env)],
      ['agent: link opened before the signalling attack', () => agentAnswersPing(env, before)],
      ['agent: new link', () => agentAnswersPing(env)],
    ];
    for (const [target, check] of checks) {
      const t = performance.now();
      const problem = await check();
      recorder.count('liveness', target, problem ? 'failed' : 'ok', performance.now() - t);
      if (problem)
        recorder.fail({ area: 'liveness', target, index: -1, label: 'after the run', problem, input: '' });
    }

    // Last, as it may take the agent down: links closed while their streams start.
    await fuzzLinkChurn(env, options.churnSeconds ?? 0, options.seed, recorder);
    if (options.churnSeconds && !env.agent.exited()) {
      log(`fuzz: link churn done`);
      const problem = await agentAnswersPing(env);
      recorder.count('liveness', 'agent: after link churn', problem ? 'failed' : 'ok', 0);
      if (problem) {
        recorder.fail({
          area: 'liveness',
          target: 'agent',
          index: -1,
          label: 'after link churn',
          problem,
          input: '',
        });
      }
    }
  } catch (err) {
    if (!(err instanceof AgentCrash) && !env.agent.exited()) throw err;
    // The agent crashed: what follows cannot run; the crash is the failure (below).
  } finally {
    const exited = env.agent.exited();
    if (exited) {
      recorder.fail(
        {
          area: 'liveness',
          target: 'agent',
          index: -1,
          label: 'agent process',
          problem: `the agent crashed: ${exited}`,
          input: env.agent.tail.slice(-20).join('\n'),
        },
        4_000,
      );
    }
    // Each distinct uncaught exception the agent logged, once, with how often.
    const uncaught = new Map<string, number>();
    for (const line of env.agent.uncaught) {
      const text = line.replace(/^\S+Z /, '');
      uncaught.set(text, (uncaught.get(text) ?? 0) + 1);
    }
    for (const [text, times] of uncaught) {
      recorder.fail({
        area: 'liveness',
        target: 'agent',
        index: -1,
        label: `agent log (${times}×)`,
        problem: text,
        input: '',
      });
    }
    await env.dispose();
  }
  const summary = recorder.summary();
  const known = KNOWN_DEFECTS.map((d) => ({
    id: d.id,
    note: d.note,
    failures: recorder.knownCounts[d.id] ?? 0,
  })).filter((d) => d.failures > 0);
  return {
    ...summary,
    duration_ms: Math.round(performance.now() - t0),
    known_defects: known,
  };
}
