/**
 * The SSH install's step groups (spec §3 "SSH install": step groups with children — message, ok, error,
 * start, endpoint; §4 "Three groups run in order"): pure helpers the sshInstall machine and the view share.
 *
 * Groups: Requirements (check-gpu, check-docker, install-docker, check-docker-privileged, install-requirements);
 * Downloading and Installing (download-client, install-client); Registration procedures (register-token,
 * restart-device, and start-client — ours: §4's "the start command is sent", shown where it happens).
 * A skipped step counts as succeeded; a group is ok only when every child succeeded (§4).
 */
import type { SshProcess, SshStepResult } from '../../src/protocol/sshInstall';

/** What a step is doing. */
export type StepStatus = 'pending' | 'running' | 'ok' | 'failed' | 'skipped' | 'canceled';

/** One child of a group (§3: message, ok, error, start, endpoint) plus its live output and end. */
export interface InstallStep {
  /** §3 endpoint: the ssh-command process. */
  endpoint: SshProcess;
  status: StepStatus;
  /** §3 message: the last word of the step (its result message, or the last output line). */
  message: string;
  /** §3 ok: true when it succeeded or was skipped; false when it failed; null before it ran. */
  ok: boolean | null;
  /** §3 error: the failure's { code, message }, else null. */
  error: { code: string; message: string } | null;
  /** §3 start: when it started, ms since the epoch (null before). */
  start: number | null;
  /** When it ended, ms since the epoch (null while pending or running). */
  end: number | null;
  /** Output lines as they came (the newest OUTPUT_KEEP_LINES). */
  output: string[];
}

export interface StepGroup {
  id: 'requirements' | 'download' | 'registration';
  children: InstallStep[];
}

/** Output lines a step keeps. */
export const OUTPUT_KEEP_LINES = 500;

/** The groups' order and children (§4). */
export const GROUP_LAYOUT: readonly { id: StepGroup['id']; steps: readonly SshProcess[] }[] = [
  {
    id: 'requirements',
    steps: ['check-gpu', 'check-docker', 'install-docker', 'check-docker-privileged', 'install-requirements'],
  },
  { id: 'download', steps: ['download-client', 'install-client'] },
  { id: 'registration', steps: ['register-token', 'restart-device', 'start-client'] },
];

/** Every step in run order. */
export const STEP_ORDER: readonly SshProcess[] = GROUP_LAYOUT.flatMap((g) => g.steps);

const pendingStep = (endpoint: SshProcess): InstallStep => ({
  endpoint,
  status: 'pending',
  message: '',
  ok: null,
  error: null,
  start: null,
  end: null,
  output: [],
});

/** Fresh groups, every step pending. */
export const initialGroups = (): StepGroup[] =>
  GROUP_LAYOUT.map((g) => ({ id: g.id, children: g.steps.map(pendingStep) }));

/** The step `endpoint` of `groups`. */
export function stepOf(groups: readonly StepGroup[], endpoint: SshProcess): InstallStep {
  for (const g of groups) for (const s of g.children) if (s.endpoint === endpoint) return s;
  throw new Error(`no step ${endpoint}`);
}

/** `groups` with step `endpoint` changed by `patch` (a new array; the others shared). */
export function updateStep(
  groups: readonly StepGroup[],
  endpoint: SshProcess,
  patch: (s: InstallStep) => Partial<InstallStep>,
): StepGroup[] {
  return groups.map((g) =>
    g.children.some((s) => s.endpoint === endpoint)
      ? { ...g, children: g.children.map((s) => (s.endpoint === endpoint ? { ...s, ...patch(s) } : s)) }
      : g,
  );
}

/** §4: a group is ok only if all its children succeeded (skipped counts as succeeded). */
export const groupOk = (g: StepGroup): boolean => g.children.every((s) => s.ok === true);

/** Facts of the run that decide which steps run (§4). */
export interface RunFacts {
  /** check-docker did not pass: install-docker runs. */
  dockerMissing: boolean;
  /** A restart is needed (Docker was installed, or the docker group changed). */
  restartNeeded: boolean;
  /** The operator's answer to the restart question: null not asked yet. */
  restartConfirmed: boolean | null;
}

/** What comes after a step: run one, ask for the restart, or the install is complete. */
export type NextStep =
  { kind: 'run'; endpoint: SshProcess } | { kind: 'confirmRestart' } | { kind: 'complete' };

/**
 * The step after `after` (null: the first), given the facts (§4): install-docker only when Docker was
 * missing; restart-device only when a restart is needed and the operator confirms (asked first); start-client
 * only when no restart happened (not needed — §4 — or declined, so the device still comes up now).
 */
export function nextStep(after: SshProcess | null, facts: RunFacts): NextStep {
  const from = after === null ? 0 : STEP_ORDER.indexOf(after) + 1;
  for (const endpoint of STEP_ORDER.slice(from)) {
    if (endpoint === 'install-docker' && !facts.dockerMissing) continue;
    if (endpoint === 'restart-device') {
      if (!facts.restartNeeded) continue;
      if (facts.restartConfirmed === null) return { kind: 'confirmRestart' };
      if (!facts.restartConfirmed) continue;
    }
    if (endpoint === 'start-client' && facts.restartNeeded && facts.restartConfirmed) continue;
    return { kind: 'run', endpoint };
  }
  return { kind: 'complete' };
}

/** Steps between `after` and `next` that do not run: marked skipped. */
export function skippedBetween(after: SshProcess | null, next: SshProcess | null): SshProcess[] {
  const from = after === null ? 0 : STEP_ORDER.indexOf(after) + 1;
  const to = next === null ? STEP_ORDER.length : STEP_ORDER.indexOf(next);
  return STEP_ORDER.slice(from, to);
}

/** The facts a step's result adds (check-docker, install-docker, check-docker-privileged). */
export function factsAfter(endpoint: SshProcess, result: SshStepResult, facts: RunFacts): RunFacts {
  if (endpoint === 'check-docker') return { ...facts, dockerMissing: !result.ok };
  if (endpoint === 'install-docker' && result.ok) return { ...facts, restartNeeded: true };
  if (endpoint === 'check-docker-privileged' && result.data.restart_needed === '1')
    return { ...facts, restartNeeded: true };
  return facts;
}

/** True when a step's result counts as success (check-docker's "not installed" is an answer, not a failure). */
export const resultPasses = (endpoint: SshProcess, result: SshStepResult): boolean =>
  result.ok ||
  (endpoint === 'check-docker' && result.code === 'SSH_STEP_FAILED' && result.data.docker === 'missing');
