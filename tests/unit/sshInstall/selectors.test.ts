/**
 * The SSH install's snapshot → view mapping (src/console/features/sshInstall/selectors.ts) and the pure step
 * rules (machines/sshInstall/steps.ts): groups' status (ok only when every child succeeded), elapsed time, the
 * phases and what the screen may offer in each.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { sshInstallMachine, type SshConnectOutput } from '../../../machines/sshInstall/sshInstall.machine';
import { initialGroups, nextStep, updateStep } from '../../../machines/sshInstall/steps';
import {
  connectionEntryOf,
  groupsToView,
  installToView,
} from '../../../src/console/features/sshInstall/selectors';
import type { SshStepResult } from '../../../src/protocol/sshInstall';

const ok = (data: Record<string, unknown> = {}): SshStepResult => ({
  ok: true,
  exit_code: 0,
  code: null,
  message: 'fine',
  data,
  elapsed_ms: 1,
});

describe('groupsToView', () => {
  it('a group is ok only when every child succeeded; failed when one failed; running in between', () => {
    let g = initialGroups();
    expect(groupsToView(g, 0).map((x) => x.status)).toEqual(['pending', 'pending', 'pending']);
    g = updateStep(g, 'check-gpu', () => ({ status: 'ok', ok: true, start: 100, end: 350 }));
    g = updateStep(g, 'check-docker', () => ({ status: 'running', start: 400 }));
    const v = groupsToView(g, 1400);
    expect(v[0]!.status).toBe('running');
    expect(v[0]!.children[0]!.elapsedMs).toBe(250);
    expect(v[0]!.children[1]!.elapsedMs).toBe(1000);
    expect(v[0]!.children[2]!.elapsedMs).toBeNull();
    for (const s of [
      'check-docker',
      'install-docker',
      'check-docker-privileged',
      'install-requirements',
    ] as const)
      g = updateStep(g, s, () => ({
        status: s === 'install-docker' ? 'skipped' : 'ok',
        ok: true,
        end: 1500,
      }));
    expect(groupsToView(g, 2000)[0]!.status).toBe('ok');
    g = updateStep(g, 'install-client', () => ({
      status: 'failed',
      ok: false,
      error: { code: 'SSH_STEP_FAILED', message: 'x' },
    }));
    expect(groupsToView(g, 2000)[1]!.status).toBe('failed');
  });

  it('nextStep: docker install only when missing; restart asked, then run or skipped; start only without a restart', () => {
    const base = { dockerMissing: false, restartNeeded: false, restartConfirmed: null };
    expect(nextStep('check-docker', base)).toEqual({ kind: 'run', endpoint: 'check-docker-privileged' });
    expect(nextStep('check-docker', { ...base, dockerMissing: true })).toEqual({
      kind: 'run',
      endpoint: 'install-docker',
    });
    expect(nextStep('register-token', base)).toEqual({ kind: 'run', endpoint: 'start-client' });
    expect(nextStep('register-token', { ...base, restartNeeded: true })).toEqual({ kind: 'confirmRestart' });
    expect(nextStep('register-token', { ...base, restartNeeded: true, restartConfirmed: true })).toEqual({
      kind: 'run',
      endpoint: 'restart-device',
    });
    expect(nextStep('restart-device', { ...base, restartNeeded: true, restartConfirmed: true })).toEqual({
      kind: 'complete',
    });
    expect(nextStep('register-token', { ...base, restartNeeded: true, restartConfirmed: false })).toEqual({
      kind: 'run',
      endpoint: 'start-client',
    });
    expect(nextStep('start-client', base)).toEqual({ kind: 'complete' });
  });
});

describe('installToView', () => {
  function actor() {
    let now = 1000;
    const a = createActor(
      sshInstallMachine.provide({
        actors: {
          connect: fromPromise(async (): Promise<SshConnectOutput> => ({
            ok: true,
            session_id: 's',
            fingerprint: 'SHA256:k',
            key_type: 'ssh-ed25519',
            pinned_now: false,
            message: '',
            device_id: 'd-1',
          })),
          runStep: fromCallback(() => () => {}),
          disconnect: fromPromise(async () => {}),
        },
      }),
      {
        input: {
          target: { deviceId: '', device: 'Box', hostname: 'h', port: 22, username: 'u' },
          now: () => (now += 100),
        },
      },
    ).start();
    return a;
  }
  const flush = () => new Promise((r) => setTimeout(r, 0));

  it('form → connected (fingerprint, Install offered) → installing (Cancel) → failed (Retry, the error) → retry', async () => {
    const a = actor();
    expect(installToView(a.getSnapshot(), 0)).toMatchObject({
      phase: 'form',
      sshStatus: 'idle',
      canInstall: false,
    });
    a.send({ type: 'ssh.connect', credentials: { kind: 'password', password: 'p' } });
    expect(installToView(a.getSnapshot(), 0).phase).toBe('connecting');
    await flush();
    const connected = installToView(a.getSnapshot(), 0);
    expect(connected).toMatchObject({
      phase: 'connected',
      sshStatus: 'connected',
      fingerprint: 'SHA256:k',
      pinnedNow: false,
      canInstall: true,
      canDisconnect: true,
    });
    expect(connected.target.deviceId).toBe('d-1');
    a.send({ type: 'ssh.install' });
    let v = installToView(a.getSnapshot(), 0);
    expect(v).toMatchObject({
      phase: 'installing',
      sshStatus: 'installing',
      canCancel: true,
      canRetry: false,
    });
    expect(v.groups[0]!.children[0]).toMatchObject({ endpoint: 'check-gpu', status: 'running' });
    a.send({ type: 'step.output', lines: ['No NVIDIA GPU found'] });
    a.send({ type: 'step.result', result: ok() });
    a.send({
      type: 'step.result',
      result: { ...ok({ docker: 'missing' }), ok: false, code: 'SSH_STEP_FAILED', message: 'missing' },
    });
    v = installToView(a.getSnapshot(), 0);
    // check-docker's "not installed" is an answer: docker install runs next.
    expect(v.groups[0]!.children.map((s) => s.status)).toEqual(['ok', 'ok', 'running', 'pending', 'pending']);
    a.send({ type: 'step.error', error: { code: 'SSH_SESSION_GONE', message: 'gone', status: 404 } });
    v = installToView(a.getSnapshot(), 0);
    expect(v).toMatchObject({
      phase: 'failed',
      canRetry: true,
      failure: { endpoint: 'install-docker', code: 'SSH_SESSION_GONE' },
    });
    expect(v.groups[0]!.status).toBe('failed');
    a.send({ type: 'ssh.retry' });
    expect(installToView(a.getSnapshot(), 0).groups[0]!.children[2]!.status).toBe('running');
    a.send({ type: 'ssh.cancel' });
    await flush();
    v = installToView(a.getSnapshot(), 0);
    expect(v).toMatchObject({ phase: 'canceled', sshStatus: null });
    expect(v.groups[0]!.children[2]!.status).toBe('canceled');
    expect(a.getSnapshot().context.credentials).toBeNull();
    const entry = connectionEntryOf(a.getSnapshot());
    expect(entry).toMatchObject({ device: 'Box', deviceId: 'd-1', done: false, canceled: true });
    expect(entry.doneTime).toEqual(expect.any(Number));
    expect(entry.installSteps.map((g) => g.id)).toEqual(['requirements', 'download', 'registration']);
  });
});
