/**
 * The face gallery — issue 11 "Faces: a gallery of enrolled faces (upload or pick from events)", spec §2 auth
 * route `/blacklist-faces`: the user's enrolled faces with the people the cameras have seen (the picker's
 * recent person events and the identities an uploaded photo may be linked to), enrolling from an event or
 * by upload, renaming, putting on or taking off the blacklist, and deleting after a confirmation. After every
 * change the actors send `alarm-new` (§7) again to the connected devices, so face alarms fire on the new
 * blacklist at once.
 *
 * idle → (faces.load) → loading → ready | failed; faces.refresh reloads; in ready: face.enroll → enrolling,
 * face.upload → uploading (both → loading with a notice and `saved` bumped | ready with `formError` kept for
 * the dialog), face.update → updating → loading | ready (notice); delete.ask → confirming → delete.confirm →
 * deleting → loading; delete.cancel → ready (the shared list machine, machines/shared/listMachine.ts). Pure: the calls are the provided actors `loadFaces`,
 * `enrollFace`, `uploadFace`, `updateFace` and `deleteFace`. Tag `busy` while loading or changing.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { FaceView, SeenEvent, SeenIdentity } from '../../src/protocol/faces';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import { listMachineConfig } from '../shared/listMachine';

export interface FacesLoaded {
  faces: FaceView[];
  /** Recent person events with an identity (one per person, newest first). */
  seen: SeenEvent[];
  /** Every identity seen in the user's events. */
  identities: SeenIdentity[];
}

export interface FacesContext extends FacesLoaded {
  error: string | null;
  /** The enroll / upload dialog's last error (cleared by the next try). */
  formError: string | null;
  /** Bumped on every successful enrolment: the dialog closes when it changes. */
  saved: number;
  target: FaceView | null;
}

/** An upload: the picture (a File in the browser) and who it shows. */
export interface FaceUpload {
  picture: Blob;
  identity: string;
  label: string;
  blacklisted: boolean;
}

export type FacesEvent =
  | { type: 'faces.load' }
  | { type: 'faces.refresh' }
  | { type: 'face.enroll'; eventId: string; label?: string; blacklisted: boolean }
  | ({ type: 'face.upload' } & FaceUpload)
  | { type: 'face.update'; id: string; label?: string; blacklisted?: boolean }
  | { type: 'form.clear' }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'faces.reset' };

const INITIAL: FacesContext = {
  faces: [],
  seen: [],
  identities: [],
  error: null,
  formError: null,
  saved: 0,
  target: null,
};

const enrolled = { target: 'loading', actions: ['countSaved', 'noticeEnrolled'] } as const;

const facesSetup = setup({
  types: {
    context: {} as FacesContext,
    events: {} as FacesEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    loadFaces: fromPromise<FacesLoaded>(async () => {
      throw new Error('faces: loadFaces is not provided');
    }),
    enrollFace: fromPromise<FaceView, { eventId: string; label?: string; blacklisted: boolean }>(async () => {
      throw new Error('faces: enrollFace is not provided');
    }),
    uploadFace: fromPromise<FaceView, FaceUpload>(async () => {
      throw new Error('faces: uploadFace is not provided');
    }),
    updateFace: fromPromise<FaceView, { id: string; label?: string; blacklisted?: boolean }>(async () => {
      throw new Error('faces: updateFace is not provided');
    }),
    deleteFace: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('faces: deleteFace is not provided');
    }),
  },
  actions: {
    countSaved: assign(({ context }) => ({ saved: context.saved + 1 })),
    noticeEnrolled: emit(({ event }) => ({
      type: 'notice' as const,
      variant: 'success' as const,
      title: 'Face enrolled',
      message: (event as unknown as { output: FaceView }).output.label,
      i18n: { title: { key: 'faces.enrolled' } },
    })),
  },
  guards: {
    known: ({ context, event }) =>
      (event.type === 'delete.ask' || event.type === 'face.update') &&
      context.faces.some((f) => f.id === event.id),
  },
});

const enrolling = facesSetup.createStateConfig({
  tags: ['busy'],
  invoke: {
    id: 'enrollFace',
    src: 'enrollFace',
    input: ({ event }) => {
      const e = event as Extract<FacesEvent, { type: 'face.enroll' }>;
      return { eventId: e.eventId, label: e.label, blacklisted: e.blacklisted };
    },
    onDone: { ...enrolled, actions: [...enrolled.actions] },
    onError: {
      target: 'ready',
      actions: assign({
        formError: ({ event }) => errorText(event.error, 'The face could not be enrolled.'),
      }),
    },
  },
});

const uploading = facesSetup.createStateConfig({
  tags: ['busy'],
  invoke: {
    id: 'uploadFace',
    src: 'uploadFace',
    input: ({ event }) => {
      const e = event as Extract<FacesEvent, { type: 'face.upload' }>;
      return { picture: e.picture, identity: e.identity, label: e.label, blacklisted: e.blacklisted };
    },
    onDone: { ...enrolled, actions: [...enrolled.actions] },
    onError: {
      target: 'ready',
      actions: assign({
        formError: ({ event }) => errorText(event.error, 'The picture could not be uploaded.'),
      }),
    },
  },
});

const updating = facesSetup.createStateConfig({
  tags: ['busy'],
  invoke: {
    id: 'updateFace',
    src: 'updateFace',
    input: ({ event }) => {
      const e = event as Extract<FacesEvent, { type: 'face.update' }>;
      return { id: e.id, label: e.label, blacklisted: e.blacklisted };
    },
    onDone: {
      target: 'ready',
      actions: assign(({ context, event }) => ({
        faces: context.faces.map((f) => (f.id === event.output.id ? event.output : f)),
      })),
    },
    onError: {
      target: 'ready',
      actions: emit(({ event }) => ({
        type: 'notice' as const,
        variant: 'danger' as const,
        title: 'Change failed',
        message: errorText(event.error, 'The face could not be changed.'),
        i18n: { title: { key: 'faces.changeFailed' } },
      })),
    },
  },
});

export const facesMachine = facesSetup.createMachine(
  listMachineConfig(facesSetup, {
    id: 'faces',
    items: 'faces',
    context: INITIAL,
    start: 'faces.load',
    reload: { ready: ['faces.load', 'faces.refresh'], failed: ['faces.load', 'faces.refresh'] },
    reset: { event: 'faces.reset', context: INITIAL },
    load: {
      src: 'loadFaces',
      loaded: (output: FacesLoaded) => ({ ...output, error: null, formError: null }),
      failedText: 'The faces could not be read.',
    },
    ready: facesSetup.createStateConfig({
      on: {
        'form.clear': { actions: assign({ formError: null }) },
        'face.enroll': { target: 'enrolling', actions: assign({ formError: null }) },
        'face.upload': { target: 'uploading', actions: assign({ formError: null }) },
        'face.update': { guard: 'known', target: 'updating' },
      },
    }),
    states: { enrolling, uploading, updating },
    remove: {
      src: 'deleteFace',
      guard: 'known',
      failedText: 'The face could not be deleted.',
      keepError: false,
      failedNotice: { title: 'Delete failed', key: 'faces.deleteFailed' },
    },
  }),
);
