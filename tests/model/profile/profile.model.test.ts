/**
 * The profile machines on model-based paths (issue 13 Profile; §5 "Profile update sends the password only when
 * provided"; §8 "Generated!" / "New token is copied to clipboard."):
 * - profileForm: load/fail/retry, an invalid form stays with field errors, a save succeeds or fails on a field
 *   (Wrong_password → current password) or above the form, avatar upload and removal;
 * - apiKeys: load, create (empty name refused), the secret shown once until dismissed, revoke asked then done
 *   or cancelled, failures kept;
 * - profileReport: load, fail, reload keeping the data.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { apiKeysMachine } from '../../../machines/profile/apiKeys.machine';
import { profileFormMachine } from '../../../machines/profile/profileForm.machine';
import type { ProfileFormValues, ProfileUser } from '../../../machines/profile/profileForm';
import { reportMachine } from '../../../machines/profile/profileReport.machine';
import type { ConsoleEmitted } from '../../../machines/notifications/emitted';
import type { ApiKey } from '../../../src/protocol/profile';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

const user: ProfileUser = {
  id: 'u1',
  email: 'pat@example.com',
  username: 'pat',
  bio: null,
  image: null,
  roles: ['user'],
};
const values = (v: Partial<ProfileFormValues>): ProfileFormValues => ({
  email: user.email,
  username: user.username,
  bio: '',
  password: '',
  passwordConfirm: '',
  currentPassword: '',
  ...v,
});
const wrongPassword = Object.assign(new Error('The current password is not correct.'), {
  code: 'Wrong_password',
});

describe('profileForm machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof profileFormMachine>;
  const events = (_s: Snap, type: string): EventObject[] | undefined => {
    switch (type) {
      case 'profile.save':
        return [
          { type, values: values({ username: 'Pat Q', bio: 'hi' }) },
          { type, values: values({ username: '  ' }) },
        ] as unknown as EventObject[];
      case 'avatar.uploaded':
        return [{ type, user: { ...user, image: '/api/avatars/u1?v=abc' } }] as unknown as EventObject[];
      case 'xstate.done.actor.loadUser':
        return [{ type, output: user }] as unknown as EventObject[];
      case 'xstate.error.actor.loadUser':
        return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
      case 'xstate.done.actor.saveProfile':
        return [{ type, output: { ...user, username: 'Pat Q', bio: 'hi' } }] as unknown as EventObject[];
      case 'xstate.error.actor.saveProfile':
        return [
          { type, error: wrongPassword },
          { type, error: new Error('Servers are unavailable.') },
        ] as unknown as EventObject[];
      case 'xstate.done.actor.removeAvatar':
        return [{ type, output: user }] as unknown as EventObject[];
      case 'xstate.error.actor.removeAvatar':
        return [{ type, error: new Error('nope') }] as unknown as EventObject[];
      default:
        return undefined;
    }
  };
  const key = (s: Snap) =>
    JSON.stringify([
      s.value,
      s.context.user?.username ?? null,
      s.context.user?.image ?? null,
      s.context.fieldErrors,
      s.context.error,
      s.context.saved,
    ]);

  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(profileFormMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(
        profileFormMachine.provide({
          actors: {
            loadUser: d.promise('loadUser'),
            saveProfile: d.promise('saveProfile'),
            removeAvatar: d.promise('removeAvatar'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'failed', 'ready', 'saving', 'removingAvatar'] as const)
      expect(
        ends.some((s) => s.matches(st)),
        st,
      ).toBe(true);
    expect(ends.some((s) => s.context.fieldErrors.username === 'usernameRequired')).toBe(true);
    expect(ends.some((s) => s.context.fieldErrors.currentPassword?.includes('not correct'))).toBe(true);
    expect(ends.some((s) => s.context.saved && s.context.user?.username === 'Pat Q')).toBe(true);
  });

  it('sends only what changed, the password only when provided (§5), and asks the current password for it', async () => {
    const sent: unknown[] = [];
    const notices: ConsoleEmitted[] = [];
    const actor = createActor(
      profileFormMachine.provide({
        actors: {
          loadUser: fromPromise(async () => user),
          saveProfile: fromPromise(async ({ input }: { input: unknown }) => {
            sent.push(input);
            return { ...user, username: 'Pat Q' };
          }) as never,
        },
      }),
    ).start();
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'profile.load' });
    await new Promise((r) => setImmediate(r));
    actor.send({ type: 'profile.save', values: values({ username: ' Pat Q ' }) });
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([{ username: 'Pat Q' }]);
    expect(actor.getSnapshot().context.formVersion).toBe(1);
    // A new password without the current one is refused on the form, nothing sent.
    actor.send({
      type: 'profile.save',
      values: values({ username: 'Pat Q', password: 'longer-pass', passwordConfirm: 'longer-pass' }),
    });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ currentPassword: 'currentPasswordRequired' });
    actor.send({
      type: 'profile.save',
      values: values({
        username: 'Pat Q',
        password: 'longer-pass',
        passwordConfirm: 'longer-pass',
        currentPassword: 'old',
      }),
    });
    await new Promise((r) => setImmediate(r));
    expect(sent[1]).toEqual({ password: 'longer-pass', current_password: 'old' });
    expect(notices.map((n) => n.type === 'notice' && n.title)).toEqual(['Saved', 'Saved']);
  });
});

const key1: ApiKey = {
  id: 'k1',
  name: 'ci',
  scope: 'read',
  prefix: 'edk_abcdefgh',
  created_at: '2026-11-27T00:00:00.000Z',
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  state: 'active',
};

describe('apiKeys machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof apiKeysMachine>;
  const events = (_s: Snap, type: string): EventObject[] | undefined => {
    switch (type) {
      case 'key.create':
        return [
          { type, name: 'deploy', scope: 'full', expiresInDays: 30 },
          { type, name: ' ', scope: 'read', expiresInDays: null },
        ] as unknown as EventObject[];
      case 'key.revoke':
        return [{ type, id: 'k1' }] as unknown as EventObject[];
      case 'xstate.done.actor.loadKeys':
        return [{ type, output: [key1] }] as unknown as EventObject[];
      case 'xstate.error.actor.loadKeys':
        return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
      case 'xstate.done.actor.createKey':
        return [
          { type, output: { key: { ...key1, id: 'k2', name: 'deploy' }, secret: 'edk_secret' } },
        ] as unknown as EventObject[];
      case 'xstate.error.actor.createKey':
        return [
          { type, error: new Error('You already have an active API key with this name.') },
        ] as unknown as EventObject[];
      case 'xstate.done.actor.revokeKey':
        return [
          { type, output: { ...key1, state: 'revoked', revoked_at: '2026-11-27T01:00:00.000Z' } },
        ] as unknown as EventObject[];
      case 'xstate.error.actor.revokeKey':
        return [{ type, error: new Error('API key not found.') }] as unknown as EventObject[];
      default:
        return undefined;
    }
  };
  const key = (s: Snap) =>
    JSON.stringify([
      s.value,
      [...new Set(s.context.keys.map((k) => `${k.id}:${k.state}`))].sort(),
      s.context.created?.secret ?? null,
      s.context.revoking,
      s.context.error,
      s.context.invalid,
    ]);

  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(apiKeysMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (d: Driver) =>
      createActor(
        apiKeysMachine.provide({
          actors: {
            loadKeys: d.promise('loadKeys'),
            createKey: d.promise('createKey'),
            revokeKey: d.promise('revokeKey'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of [
      'idle',
      'loading',
      'failed',
      'ready',
      'creating',
      'created',
      'confirmingRevoke',
      'revoking',
    ] as const)
      expect(
        ends.some((s) => s.matches(st)),
        st,
      ).toBe(true);
    expect(ends.some((s) => s.matches('created') && s.context.created?.secret === 'edk_secret')).toBe(true);
    expect(ends.some((s) => s.context.keys.some((k) => k.state === 'revoked'))).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.invalid)).toBe(true);
  });

  it('toasts §8 "Generated!" on create and "New token is copied to clipboard." on copy; dismiss forgets the secret', async () => {
    const notices: ConsoleEmitted[] = [];
    const actor = createActor(
      apiKeysMachine.provide({
        actors: {
          loadKeys: fromPromise(async (): Promise<ApiKey[]> => []),
          createKey: fromPromise(async () => ({ key: key1, secret: 'edk_x' })),
        },
      }),
    ).start();
    actor.on('notice', (e) => notices.push(e));
    actor.send({ type: 'keys.load' });
    await new Promise((r) => setImmediate(r));
    actor.send({ type: 'key.create', name: 'ci', scope: 'read', expiresInDays: null });
    await new Promise((r) => setImmediate(r));
    actor.send({ type: 'key.copied' });
    expect(notices).toMatchObject([
      { title: 'Generated!' },
      { title: 'Generated!', message: 'New token is copied to clipboard.' },
    ]);
    actor.send({ type: 'key.dismiss' });
    expect(actor.getSnapshot().context.created).toBeNull();
    expect(actor.getSnapshot().context.keys).toHaveLength(1);
  });
});

describe('profileReport machine (model-based paths)', () => {
  type Snap = SnapshotFrom<typeof reportMachine>;
  const events = (_s: Snap, type: string): EventObject[] | undefined => {
    if (type === 'xstate.done.actor.load')
      return [{ type, output: { total: 3 } }] as unknown as EventObject[];
    if (type === 'xstate.error.actor.load')
      return [{ type, error: new Error('down') }] as unknown as EventObject[];
    return undefined;
  };
  const key = (s: Snap) => JSON.stringify([s.value, s.context.data, s.context.error]);

  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(reportMachine, { events, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const steps = await runPaths(
      paths,
      (d) => createActor(reportMachine.provide({ actors: { load: d.promise('load') } })).start(),
      key,
    );
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed'] as const)
      expect(
        ends.some((s) => s.matches(st)),
        st,
      ).toBe(true);
  });
});
