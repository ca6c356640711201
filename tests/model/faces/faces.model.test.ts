/**
 * The face gallery and the face alarms timeline on model-based paths (issue 11 `/blacklist-faces`,
 * `/face-alarms`): load, fail and reload; enrolling from an event and by upload reloads the gallery and bumps
 * `saved`, a refused one keeps its error for the dialog; the blacklist switch replaces the face in place, a
 * refused change goes back to the gallery; delete asks, is cancelled or confirmed; reset. The timeline loads,
 * filters by person, pages and marks events reviewed. The snapshot → view functions are checked on the way. The gallery runs on the
 * shared list machine's harness (tests/model/listHarness.ts).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { faceAlarmsMachine, type FaceEventsLoaded } from '../../../machines/faces/faceAlarms.machine';
import { facesMachine, type FacesLoaded } from '../../../machines/faces/faces.machine';
import { faceAlarmsToView, facesToView, shownError } from '../../../src/console/features/faces/selectors';
import { FACE_TEXTS, type FaceAlarmEvent, type FaceView } from '../../../src/protocol/faces';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import { listEvents, runListModel, type ListSamples } from '../listHarness';

type Snap = SnapshotFrom<typeof facesMachine>;
type TimelineSnap = SnapshotFrom<typeof faceAlarmsMachine>;
const list = (xs: object[]) => xs as unknown as EventObject[];

const face: FaceView = {
  id: '6f1c2a8e-6a43-4b57-9a8e-2f4f1f1d7c01',
  identity: 'person-3',
  label: 'Mallory',
  blacklisted: false,
  picture_url: '/api/face-pictures/6f1c2a8e-6a43-4b57-9a8e-2f4f1f1d7c01?exp=1&sig=x',
  source_event_id: null,
  created_at: '2026-11-25T10:00:00.000Z',
};
const loaded: FacesLoaded = {
  faces: [face],
  seen: [
    {
      id: 'e1',
      identity: 'person-3',
      at: '2026-11-25T10:00:00.000Z',
      camera_id: 'c',
      device_label: null,
      snapshot_url: null,
    },
    {
      id: 'e2',
      identity: 'person-7',
      at: '2026-11-25T09:00:00.000Z',
      camera_id: 'c',
      device_label: null,
      snapshot_url: null,
    },
  ],
  identities: [
    { identity: 'person-3', events: 4, last_at: '2026-11-25T10:00:00.000Z' },
    { identity: 'person-7', events: 1, last_at: '2026-11-25T09:00:00.000Z' },
  ],
};

const shared: ListSamples = {
  load: { src: 'loadFaces', output: loaded },
  remove: { src: 'deleteFace', error: 'refused' },
  listedId: face.id,
};

function galleryEvents(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'face.enroll':
      return list([{ type, eventId: 'e2', blacklisted: true }]);
    case 'face.upload':
      return list([
        { type, picture: new Blob(['x']), identity: 'person-7', label: 'Eve', blacklisted: true },
      ]);
    case 'face.update':
      return list([{ type, id: face.id, blacklisted: true }]);
    case 'xstate.done.actor.enrollFace':
    case 'xstate.done.actor.uploadFace':
      return list([{ type, output: { ...face, id: 'f2', identity: 'person-7' } }]);
    case 'xstate.error.actor.enrollFace':
      return list([{ type, error: new Error(FACE_TEXTS.noIdentity) }]);
    case 'xstate.error.actor.uploadFace':
      return list([{ type, error: new Error(FACE_TEXTS.badPicture) }]);
    case 'xstate.done.actor.updateFace':
      return list([{ type, output: { ...face, blacklisted: true } }]);
    case 'xstate.error.actor.updateFace':
      return list([{ type, error: new Error('refused') }]);
    default:
      return listEvents(shared, type);
  }
}

const galleryKey = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.faces.map((f) => [f.id, f.blacklisted]),
    s.context.error,
    s.context.formError,
    s.context.saved > 0,
    s.context.target?.id ?? null,
  ]);

describe('faces gallery machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const { ends } = await runListModel({
      machine: facesMachine,
      actors: ['loadFaces', 'enrollFace', 'uploadFace', 'updateFace', 'deleteFace'],
      events: galleryEvents,
      key: galleryKey,
      states: [
        'idle',
        'loading',
        'ready',
        'failed',
        'enrolling',
        'uploading',
        'updating',
        'confirming',
        'deleting',
      ],
    });
    // A refused enrolment keeps its error for the dialog (translated by key); a done one bumps `saved`.
    const refused = ends.find((s) => s.matches('ready') && s.context.formError === FACE_TEXTS.noIdentity);
    expect(refused && facesToView(refused).formError).toEqual({ key: 'faces.errors.noIdentity' });
    expect(ends.some((s) => s.context.saved > 0)).toBe(true);
    // The switch replaces the face in place, without a reload.
    expect(ends.some((s) => s.matches('ready') && s.context.faces[0]?.blacklisted === true)).toBe(true);
  });

  it('marks the picker’s people already enrolled and offers the others for an upload', () => {
    const actor = createActor(
      facesMachine.provide({ actors: { loadFaces: fromPromise(async () => loaded) } }),
    ).start();
    actor.send({ type: 'faces.load' });
    return new Promise<void>((resolve) => {
      const sub = actor.subscribe((s) => {
        if (!s.matches('ready')) return;
        sub.unsubscribe();
        const view = facesToView(s);
        expect(view.seen.map((e) => [e.identity, e.enrolled])).toEqual([
          ['person-3', true],
          ['person-7', false],
        ]);
        expect(view.identities.map((i) => i.identity)).toEqual(['person-7']);
        expect(shownError('Something else')).toEqual({ text: 'Something else' });
        resolve();
      });
    });
  });
});

const event = (id: string, identity: string, label: string | null): FaceAlarmEvent => ({
  id,
  alarm_id: 'a1',
  alarm_name: 'Blacklist',
  identity,
  label,
  camera_id: 'dev_cam-1',
  device_label: 'Box',
  at: '2026-11-25T10:00:00.000Z',
  severity: 'warning',
  reviewed: false,
  snapshot_url: null,
});
const page1: FaceEventsLoaded = {
  page: {
    events: [event('v1', 'person-3', 'Mallory')],
    next: { before_at: '2026-11-25T10:00:00.000Z', before_id: 'v1' },
  },
  people: [{ identity: 'person-3', label: 'Mallory' }],
};

function timelineEvents(s: TimelineSnap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'filter.set':
      return list([{ type, identity: 'person-3' }]);
    case 'review.set':
      return list([{ type, id: 'v1', reviewed: true }]);
    case 'xstate.done.actor.loadFaceEvents':
      return list([{ type, output: page1 }]);
    case 'xstate.error.actor.loadFaceEvents':
    case 'xstate.error.actor.loadMoreFaceEvents':
    case 'xstate.error.actor.reviewEvent':
      return list([{ type, error: new Error('Servers are unavailable.') }]);
    case 'xstate.done.actor.loadMoreFaceEvents':
      return list([
        { type, output: { page: { events: [event('v2', 'person-5', null)], next: null }, people: [] } },
      ]);
    case 'xstate.done.actor.reviewEvent':
      return s.matches('reviewing') ? list([{ type, output: { id: 'v1', reviewed: true } }]) : undefined;
    default:
      return undefined;
  }
}

const timelineKey = (s: TimelineSnap) =>
  JSON.stringify([
    s.value,
    s.context.events.map((e) => [e.id, e.reviewed]),
    s.context.identity,
    s.context.error,
    s.context.next !== null,
  ]);

describe('face alarms machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(faceAlarmsMachine, {
      events: timelineEvents,
      key: timelineKey,
    }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        faceAlarmsMachine.provide({
          actors: {
            loadFaceEvents: driver.promise('loadFaceEvents'),
            loadMoreFaceEvents: driver.promise('loadMoreFaceEvents'),
            reviewEvent: driver.promise('reviewEvent'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, timelineKey);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'loadingMore', 'reviewing'] as const)
      expect(
        ends.some((s) => s.matches(st)),
        st,
      ).toBe(true);
    // More pages append; a reviewed event is marked in place; the filter is kept.
    const more = ends.find((s) => s.context.events.length === 2);
    expect(more && faceAlarmsToView(more).events.map((e) => e.person)).toEqual(['Mallory', null]);
    expect(ends.some((s) => s.context.events[0]?.reviewed === true)).toBe(true);
    expect(ends.some((s) => s.context.identity === 'person-3')).toBe(true);
  });

  it('asks for the next page with the filter and the cursor', async () => {
    const inputs: unknown[] = [];
    const actor = createActor(
      faceAlarmsMachine.provide({
        actors: {
          loadFaceEvents: fromPromise(async ({ input }) => {
            inputs.push(input);
            return page1;
          }),
          loadMoreFaceEvents: fromPromise(async ({ input }) => {
            inputs.push(input);
            return page1;
          }),
        },
      }),
    ).start();
    actor.send({ type: 'faceAlarms.load' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'filter.set', identity: 'person-3' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'faceAlarms.more' });
    await new Promise((r) => setTimeout(r, 0));
    expect(inputs).toEqual([
      { identity: '', before: null },
      { identity: 'person-3', before: null },
      { identity: 'person-3', before: page1.page.next },
    ]);
  });

  it('shows a review at once and puts it back when the server refuses it', async () => {
    let refuse: (e: Error) => void = () => {};
    const actor = createActor(
      faceAlarmsMachine.provide({
        actors: {
          loadFaceEvents: fromPromise(async () => page1),
          reviewEvent: fromPromise(
            () => new Promise<{ id: string; reviewed: boolean }>((_resolve, reject) => (refuse = reject)),
          ),
        },
      }),
    ).start();
    actor.send({ type: 'faceAlarms.load' });
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'review.set', id: 'v1', reviewed: true });
    expect(faceAlarmsToView(actor.getSnapshot()).events[0]?.reviewed).toBe(true);
    refuse(new Error('refused'));
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.events[0]?.reviewed).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('refused');
  });
});
