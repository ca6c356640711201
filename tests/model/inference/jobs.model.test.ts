/**
 * The jobs machine (§2 /jobs, §3 Job, §4 "Job events", §9 device score) on model-based paths, one region at a
 * time: path search over the three parallel regions at once is too large, so each run offers only the events of
 * one region (plus what it needs from `list`: the jobs loaded) and keys the state by that region alone. The
 * machine itself is the real one; its calls are the harness's fake actors and the start it spawns is a stub
 * machine (the handshake has its own model test).
 *
 * Covered: the list (load, refresh while loading reloads, a failed load, a job created while a load is in
 * flight is kept, a start's reported state replaces the row); the form (options, a device's cameras, the §9
 * "best device" pick choosing the lowest score and showing the scores, no device answering, create and the
 * start spawned); the operations (stop, delete and delete several after a confirmation, cancel, a restart
 * spawning a start at once or, with no applications loaded, after loading them).
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type EventObject, type SnapshotFrom } from 'xstate';
import { BEST_DEVICE, jobsMachine } from '../../../machines/inference/jobs.machine';
import type { Application } from '../../../src/protocol/applications';
import type { Job } from '../../../src/protocol/inference';
import { createMachineTestModel, Driver, flush, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof jobsMachine>;

const job = (id: string, state: Job['state'] = 'created'): Job => ({
  id,
  job_name: `job ${id.slice(0, 4)}`,
  application_id: 'app-1',
  application_name: 'people',
  device_id: 'dev-a',
  device_label: 'Box A',
  cameras: ['cam-1'],
  camera_label: 'Camera 1',
  state,
  options: { resolution: null, threshold: 0.3, recording: false, engine: null },
  runtime: {
    jobId: null,
    childJobId: null,
    port: null,
    scriptPath: null,
    inferenceUrl: null,
    containerName: null,
    inferenceEngineError: null,
    message: null,
  },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});
const OLD = job('1111aaaa-0000-4000-8000-000000000001');
const NEW = job('2222bbbb-0000-4000-8000-000000000002');
const app = { id: 'app-1', name: 'people', input: { fps: 25 } } as unknown as Application;
const devices = [
  { device_id: 'dev-a', label: 'Box A', online: true },
  { device_id: 'dev-b', label: 'Box B', online: true },
];
const camera = { camera_id: 'cam-1', name: 'Camera 1' };
const camera2 = { camera_id: 'cam-2', name: 'Camera 2' };
/** The stream page's "Run an application": its device and camera preset, a stream page start (§4 step 7). */
const PRESET = { device_id: 'dev-a', camera_id: 'cam-2' };

const LIST = ['jobs.load', 'jobs.refresh', 'xstate.done.actor.loadJobs', 'xstate.error.actor.loadJobs'];
const REGION_EVENTS: Record<'list' | 'form' | 'op', string[]> = {
  list: [...LIST, 'start.reported', 'jobs.reset'],
  form: [
    'form.open',
    'form.close',
    'form.set',
    'form.submit',
    'xstate.done.actor.loadOptions',
    'xstate.error.actor.loadOptions',
    'xstate.done.actor.scoreDevices',
    'xstate.error.actor.scoreDevices',
    'xstate.done.actor.loadCameras',
    'xstate.done.actor.createJob',
    'xstate.error.actor.createJob',
  ],
  op: [
    'jobs.load',
    'xstate.done.actor.loadJobs',
    'job.select',
    'job.stop',
    'job.restart',
    'job.delete',
    'jobs.deleteSelected',
    'op.confirm',
    'op.cancel',
    'xstate.done.actor.runOp',
    'xstate.error.actor.runOp',
    'xstate.done.actor.loadRestartOptions',
  ],
};

function eventsFor(region: 'list' | 'form' | 'op', s: Snap, type: string): EventObject[] {
  if (!REGION_EVENTS[region].includes(type)) return [];
  const e = (x: object) => [{ type, ...x }] as unknown as EventObject[];
  switch (type) {
    case 'xstate.done.actor.loadJobs':
      // The answer of a load asked before NEW was created lacks it.
      return e({ output: [OLD] });
    case 'xstate.error.actor.loadJobs':
    case 'xstate.error.actor.loadOptions':
    case 'xstate.error.actor.scoreDevices':
    case 'xstate.error.actor.createJob':
    case 'xstate.error.actor.runOp':
      return e({ error: new Error('boom') });
    case 'xstate.done.actor.loadOptions':
    case 'xstate.done.actor.loadRestartOptions':
      return e({ output: { applications: [app], devices } });
    case 'xstate.done.actor.scoreDevices':
      return [
        // §9: 100 − load; the lowest (the busiest) is chosen.
        {
          type,
          output: [
            { device_id: 'dev-a', label: 'Box A', score: 88.5 },
            { device_id: 'dev-b', label: 'Box B', score: 61.2 },
          ],
        },
        { type, output: [{ device_id: 'dev-a', label: 'Box A', score: null }] },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.loadCameras':
      return e({ output: [camera, camera2] });
    case 'form.open':
      return [{ type }, { type, preset: PRESET, origin: 'streamPage' }] as unknown as EventObject[];
    case 'xstate.done.actor.createJob':
      return e({ output: NEW });
    case 'xstate.done.actor.runOp':
      return e({ output: null });
    case 'start.reported':
      return e({ job: { ...OLD, state: 'deploying' } });
    case 'form.set':
      return [
        { type, patch: { job_name: 'lobby' } },
        { type, patch: { device_id: 'dev-a' } },
        { type, patch: { device_id: BEST_DEVICE } },
      ] as unknown as EventObject[];
    case 'job.select':
      return s.context.jobs.length ? e({ id: OLD.id, selected: true }) : [];
    case 'job.stop':
    case 'job.restart':
    case 'job.delete':
      return e({ id: OLD.id });
    default:
      return [{ type }];
  }
}

const keyOf = (region: 'list' | 'form' | 'op') => (s: Snap) =>
  JSON.stringify(
    region === 'list'
      ? [s.value, s.context.jobs.map((j) => `${j.id.slice(0, 4)}:${j.state}`), s.context.fresh.length]
      : region === 'form'
        ? [
            (s.value as Record<string, unknown>).form,
            s.context.draft,
            s.context.formOrigin,
            s.context.chosen,
            s.context.scores.length,
            s.context.formError !== null,
            Object.keys(s.context.starts).length,
          ]
        : [
            (s.value as Record<string, unknown>).op,
            (s.value as Record<string, unknown>).list,
            s.context.op,
            s.context.selected,
            s.context.applications.length,
            Object.keys(s.context.starts).length,
          ],
  );

function run(region: 'list' | 'form' | 'op') {
  const key = keyOf(region);
  const model = createMachineTestModel(jobsMachine, {
    events: (s, t) => eventsFor(region, s, t),
    key,
    // The list region is small: every transition (self-loops such as a refresh while loading) is covered.
    transitionCoverage: region === 'list',
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });
  const start = (driver: Driver) =>
    createActor(
      jobsMachine.provide({
        actors: {
          start: createMachine({ id: 'startStub' }) as never,
          loadJobs: driver.promise('loadJobs'),
          loadOptions: driver.promise('loadOptions'),
          loadCameras: driver.promise('loadCameras'),
          scoreDevices: driver.promise('scoreDevices'),
          createJob: driver.promise('createJob'),
          runOp: driver.promise('runOp'),
        },
      }),
      { clock: driver.clock },
    ).start();
  // The restart's options load is the loadOptions actor under another invoke id.
  const custom = (driver: Driver, event: EventObject) => {
    if (event.type !== 'xstate.done.actor.loadRestartOptions') return false;
    driver.settle('loadOptions', '', { output: (event as { output?: unknown }).output });
    return true;
  };
  return { paths, start, key, custom };
}

describe('jobs machine (model-based paths, one region at a time)', () => {
  it('list: loads, reloads, keeps a job created during a load, shows a start’s reported state', async () => {
    const { paths, start, key } = run('list');
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    // A refresh asked while loading loads again (never dropped).
    expect(
      paths.some((p) =>
        p.steps.some(
          (st, i) => st.event.type === 'jobs.refresh' && p.steps[i - 1]?.state.matches({ list: 'loading' }),
        ),
      ),
    ).toBe(true);
    expect(states.some((s) => s.context.jobs.some((j) => j.state === 'deploying'))).toBe(true);
  });

  it('form: a device’s cameras, the §9 best device (lowest score chosen, scores kept), create and start', async () => {
    const { paths, start, key } = run('form');
    await runPaths(paths, start, key);
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    const picked = states.find((s) => s.context.chosen !== null)!;
    expect(picked.context.chosen).toBe('dev-b');
    expect(picked.context.scores).toHaveLength(2);
    expect(
      states.some((s) => s.context.chosen === null && s.context.scores.length === 1 && s.context.formError),
    ).toBe(true);
    // Created: the row is listed and its start spawned.
    const created = states.find((s) => Object.keys(s.context.starts).length === 1)!;
    expect(created.context.jobs.map((j) => j.id)).toContain(NEW.id);
    expect(created.context.fresh).toEqual([NEW.id]);
    // The stream page's form: the preset device's cameras read, the preset camera kept, not the first.
    expect(
      states.some(
        (s) =>
          s.matches({ form: 'editing' }) &&
          s.context.formOrigin === 'streamPage' &&
          s.context.draft.camera_id === 'cam-2' &&
          s.context.cameras.length === 2,
      ),
    ).toBe(true);
  });

  it('operations: stop, delete (confirmed), delete several, a restart after a reload loads the options first', async () => {
    const { paths, start, key, custom } = run('op');
    await runPaths(paths, start, key, custom);
    const states = paths.flatMap((p) => p.steps.map((st) => st.state));
    for (const kind of ['stop', 'delete', 'deleteMany'] as const)
      expect(states.some((s) => s.context.op?.kind === kind && s.matches({ op: 'working' }))).toBe(true);
    expect(states.some((s) => s.matches({ op: 'restarting' }))).toBe(true);
    // The restart spawned a start once the applications were there.
    expect(
      paths.some((p) =>
        p.steps.some(
          (st) =>
            st.event.type === 'xstate.done.actor.loadRestartOptions' &&
            Object.keys(st.state.context.starts).length === 1,
        ),
      ),
    ).toBe(true);
  });

  it('a job created while a list load is in flight keeps its row and its start (scripted race)', async () => {
    const driver = new Driver();
    const actor = createActor(
      jobsMachine.provide({
        actors: {
          start: createMachine({ id: 'startStub' }) as never,
          loadJobs: driver.promise('loadJobs'),
          loadOptions: driver.promise('loadOptions'),
          loadCameras: driver.promise('loadCameras'),
          createJob: driver.promise('createJob'),
        },
      }),
    ).start();
    actor.send({ type: 'jobs.load' }); // the page's load, asked before the job exists
    actor.send({ type: 'form.open' });
    await flush();
    driver.settle('loadOptions', '', { output: { applications: [app], devices } });
    await flush();
    actor.send({ type: 'form.set', patch: { job_name: 'lobby', device_id: 'dev-a' } });
    await flush();
    driver.settle('loadCameras', '', { output: [camera] });
    await flush();
    actor.send({ type: 'form.submit' });
    await flush();
    driver.settle('createJob', '', { output: NEW });
    await flush();
    driver.settle('loadJobs', '', { output: [OLD] }); // the answer read before the insert
    await flush();
    const c = actor.getSnapshot().context;
    expect(c.jobs.map((j) => j.id)).toEqual([NEW.id, OLD.id]);
    expect(Object.keys(c.starts)).toEqual([NEW.id]);
    expect(c.fresh).toEqual([]);
    actor.stop();
  });
  it('a start from the stream page is a stream page start, and its navigate is passed on (scripted)', async () => {
    const driver = new Driver();
    const inputs: unknown[] = [];
    const actor = createActor(
      jobsMachine.provide({
        actors: {
          start: createMachine({
            id: 'startStub',
            entry: ({ event }) => inputs.push((event as { input?: unknown }).input),
          }) as never,
          loadJobs: driver.promise('loadJobs'),
          loadOptions: driver.promise('loadOptions'),
          loadCameras: driver.promise('loadCameras'),
          createJob: driver.promise('createJob'),
        },
      }),
    ).start();
    const navigations: unknown[] = [];
    actor.on('navigate', (e) => navigations.push(e));
    actor.send({ type: 'form.open', preset: PRESET, origin: 'streamPage' });
    await flush();
    driver.settle('loadOptions', '', { output: { applications: [app], devices } });
    await flush();
    expect(actor.getSnapshot().matches({ form: 'loadingCameras' })).toBe(true);
    driver.settle('loadCameras', '', { output: [camera, camera2] });
    await flush();
    expect(actor.getSnapshot().context.draft.camera_id).toBe('cam-2');
    actor.send({ type: 'form.set', patch: { job_name: 'lobby' } });
    actor.send({ type: 'form.submit' });
    await flush();
    driver.settle('createJob', '', { output: NEW });
    await flush();
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({ onStreamPage: true, job: { id: NEW.id } });
    actor.send({ type: 'start.navigate', jobId: NEW.id, to: '/control-panel/cameras' });
    expect(navigations).toEqual([{ type: 'navigate', to: '/control-panel/cameras', jobId: NEW.id }]);
    // A form opened from /jobs afterwards is not a stream page form.
    actor.send({ type: 'form.open' });
    expect(actor.getSnapshot().context.formOrigin).toBe('jobs');
    actor.stop();
  });

  it('a name typed while the form’s lists load is kept (scripted)', async () => {
    const driver = new Driver();
    const actor = createActor(
      jobsMachine.provide({
        actors: {
          start: createMachine({ id: 'startStub' }) as never,
          loadJobs: driver.promise('loadJobs'),
          loadOptions: driver.promise('loadOptions'),
          loadCameras: driver.promise('loadCameras'),
          createJob: driver.promise('createJob'),
        },
      }),
    ).start();
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.set', patch: { job_name: 'typed early' } });
    await flush();
    driver.settle('loadOptions', '', { output: { applications: [app], devices } });
    await flush();
    const c = actor.getSnapshot().context;
    expect(c.draft.job_name).toBe('typed early');
    expect(c.draft.application_id).toBe(app.id);
    actor.stop();
  });
});
