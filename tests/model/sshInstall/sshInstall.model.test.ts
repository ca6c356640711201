/**
 * The SSH install on model-based paths (xstate/graph over the real machine, spec §4 "SSH install"): connect
 * (ok, refused, server trouble, host key changed and forgotten), the three groups in order, the docker
 * install only when the check did not pass, the restart asked and confirmed or declined, a failed step with
 * its dialog and "retry from this step", cancel, success and disconnect; and the registry's §2 unload state.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import type { SshConnectAnswer, SshStepResult } from '../../../src/protocol/sshInstall';
import { SSH_TEXTS } from '../../../src/protocol/sshInstall';
import {
  sshInstallMachine,
  sshStatusOf,
  type SshInstallInput,
} from '../../../machines/sshInstall/sshInstall.machine';
import { sshInstallsMachine } from '../../../machines/sshInstall/sshInstalls.machine';
import { groupOk, stepOf } from '../../../machines/sshInstall/steps';
import { createMachineTestModel, Driver, flush, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof sshInstallMachine>;

const result = (
  ok: boolean,
  data: Record<string, unknown> = {},
  message = ok ? 'fine' : 'boom',
): SshStepResult => ({
  ok,
  exit_code: ok ? 0 : 1,
  code: ok ? null : 'SSH_STEP_FAILED',
  message,
  data,
  elapsed_ms: 10,
});
const coded = (code: string, message: string, status = 409) =>
  Object.assign(new Error(message), { code, status });
const answer: SshConnectAnswer & { device_id: string } = {
  device_id: 'dev-1',
  ok: true,
  session_id: 's-1',
  fingerprint: 'SHA256:abc',
  key_type: 'ssh-ed25519',
  pinned_now: true,
  message: SSH_TEXTS.connected,
};

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const current = s.context.current;
  switch (type) {
    case 'ssh.connect':
      return [{ type, credentials: { kind: 'password', password: 'pw' } } as EventObject];
    case 'xstate.done.actor.connect':
      return [{ type, output: answer } as EventObject];
    case 'xstate.error.actor.connect':
      return [
        { type, error: coded('SSH_AUTH_FAILED', 'refused') },
        { type, error: coded('SSH_HOST_KEY_CHANGED', 'changed') },
        { type, error: coded('Internal_error', 'trouble', 500) },
      ] as unknown as EventObject[];
    case 'step.output':
      return [{ type, lines: ['a line'] } as EventObject];
    case 'step.error':
      return [{ type, error: { code: 'SSH_SESSION_GONE', message: 'gone', status: 404 } } as EventObject];
    case 'step.result':
      if (current === 'check-docker')
        return [
          { type, result: result(true, { installed: true, docker: 'installed' }) },
          { type, result: result(false, { docker: 'missing' }) },
        ] as unknown as EventObject[];
      if (current === 'check-docker-privileged')
        return [
          { type, result: result(true, { restart_needed: '0' }) },
          { type, result: result(true, { restart_needed: '1' }) },
          { type, result: result(false) },
        ] as unknown as EventObject[];
      return [
        { type, result: result(true) },
        { type, result: result(false) },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.disconnect':
    case 'xstate.done.actor.forgetHostKey':
      return [{ type, output: undefined } as EventObject];
    case 'xstate.error.actor.disconnect':
    case 'xstate.error.actor.forgetHostKey':
      return [];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.current,
    s.context.facts,
    s.context.failure?.code ?? null,
    s.context.connectError?.code ?? null,
  ]);

const input: SshInstallInput = {
  target: { deviceId: 'dev-1', device: 'Lab box', hostname: '127.0.0.1', port: 22, username: 'edge' },
  now: () => 1000,
};

function start(emitted: string[]) {
  return (driver: Driver) => {
    const actor = createActor(
      sshInstallMachine.provide({
        actors: {
          connect: driver.promise('connect'),
          runStep: driver.callback('runStep'),
          disconnect: driver.promise('disconnect'),
          forgetHostKey: driver.promise('forgetHostKey'),
        },
      }),
      { input, clock: driver.clock },
    );
    actor.on('*', (e) => emitted.push(`${e.type}|${e.title}|${e.message}`));
    return actor.start();
  };
}

describe('SSH install (model-based paths)', () => {
  const model = createMachineTestModel(sshInstallMachine, { events: eventsFor, key, input });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('follows every modelled path on the real machine', async () => {
    const emitted: string[] = [];
    const steps = await runPaths(paths, start(emitted), key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const s of [
      'done',
      'canceled',
      'closed',
      'connected',
      { installing: 'failed' },
      { installing: 'confirmRestart' },
    ] as const)
      expect(
        ends.some((e) => e.matches(s as never)),
        JSON.stringify(s),
      ).toBe(true);
    expect(emitted).toContain(`notice|SSH|${SSH_TEXTS.connected}`);
    expect(emitted).toContain(`notice|${SSH_TEXTS.connectFailed}|SSH_AUTH_FAILED: refused`);
    expect(emitted).toContain(`notice|${SSH_TEXTS.serverTrouble}|Internal_error: trouble`);
    expect(emitted).toContain(`dialog|${SSH_TEXTS.installSucceeded}|Lab box`);
    expect(emitted.some((e) => e.startsWith('dialog|Installation to Lab box has failed|'))).toBe(true);
    expect(emitted).toContain(`notice|SSH|${SSH_TEXTS.disconnected}`);
  });

  it('§4: sshStatus idle, connecting, connected, installing, then null', () => {
    const statuses = new Set(paths.flatMap((p) => p.steps.map((s) => sshStatusOf(s.state))));
    expect(statuses).toEqual(new Set(['idle', 'connecting', 'connected', 'installing', null]));
  });

  it('§4: docker is installed only when its check did not pass; a restart only when needed and confirmed', () => {
    for (const p of paths) {
      const ran = p.steps
        .filter((s) => s.state.matches({ installing: 'running' }))
        .map((s) => s.state.context.current);
      const dockerMissing = p.steps.some((s) => s.state.context.facts.dockerMissing);
      if (ran.includes('install-docker')) expect(dockerMissing).toBe(true);
      if (ran.includes('restart-device')) {
        expect(p.steps.some((s) => s.event.type === 'ssh.restart.confirm')).toBe(true);
        expect(ran).not.toContain('start-client');
      }
      if (p.state.matches('done')) {
        const g = p.state.context.groups;
        expect(g.every(groupOk)).toBe(true);
        if (!dockerMissing) expect(stepOf(g, 'install-docker').status).toBe('skipped');
        if (!p.state.context.facts.restartNeeded) expect(stepOf(g, 'restart-device').status).toBe('skipped');
      }
    }
    const done = paths.filter((p) => p.state.matches('done'));
    expect(done.some((p) => p.state.context.facts.restartConfirmed === true)).toBe(true);
    expect(done.some((p) => p.state.context.facts.restartConfirmed === false)).toBe(true);
  });

  it('a failed step is retried from that step, with its output and error kept per step', async () => {
    const failed = paths.find(
      (p) => p.state.matches({ installing: 'failed' }) && p.state.context.current === 'install-requirements',
    );
    expect(failed).toBeDefined();
    const emitted: string[] = [];
    const d = new Driver();
    const actor = start(emitted)(d);
    await flush();
    for (const st of failed!.steps) await d.exec(actor, st.event);
    const snap = actor.getSnapshot();
    expect(stepOf(snap.context.groups, 'install-requirements')).toMatchObject({
      status: 'failed',
      ok: false,
      error: { code: 'SSH_STEP_FAILED', message: 'boom' },
    });
    expect(groupOk(snap.context.groups[0]!)).toBe(false);
    actor.send({ type: 'ssh.retry' });
    expect(actor.getSnapshot().matches({ installing: 'running' })).toBe(true);
    expect(actor.getSnapshot().context.current).toBe('install-requirements');
    actor.send({ type: 'step.output', lines: ['node v20'] });
    expect(stepOf(actor.getSnapshot().context.groups, 'install-requirements').output).toEqual(['node v20']);
    actor.stop();
  });
});

describe('SSH installs registry', () => {
  it('spawns one install per device and knows while one is installing (§2 unload warning)', async () => {
    const registry = createActor(
      sshInstallsMachine.provide({
        actors: {
          sshInstall: sshInstallMachine.provide({
            actors: {
              connect: fromPromise(async () => answer),
              runStep: fromCallback(() => () => {}),
            },
          }),
        },
      }),
      { input: {} },
    ).start();
    registry.send({
      type: 'sshInstalls.start',
      target: input.target,
      credentials: { kind: 'password', password: 'pw' },
    });
    await flush();
    const ref = registry.getSnapshot().context.installs['ssh-1']!;
    expect(registry.getSnapshot().context.current).toBe('ssh-1');
    expect(sshStatusOf(ref.getSnapshot())).toBe('connected');
    expect(registry.getSnapshot().context.installing).toEqual([]);
    ref.send({ type: 'ssh.install' });
    await flush();
    expect(registry.getSnapshot().context.installing).toEqual(['ssh-1']);
    registry.send({ type: 'sshInstalls.dismiss', key: 'ssh-1' });
    expect(registry.getSnapshot().context.installs['ssh-1']).toBeDefined();
    registry.send({ type: 'sshInstalls.reset' });
    expect(registry.getSnapshot().context.installs).toEqual({});
    expect(registry.getSnapshot().context.installing).toEqual([]);
  });
});
