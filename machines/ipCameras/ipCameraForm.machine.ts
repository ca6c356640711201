/**
 * The add/edit form of one IP camera (issue 16 §2 IP cameras: "add (RTSP/HTTP URL, credentials kept server-side,
 * a test that fetches a still through the device that will reach it), edit"; §5 validation).
 *
 *   editing ──form.change──▶ editing (the draft changes; a shown still stays until the URL/device changes)
 *   editing ──form.test──▶ validating ──ok──▶ testing ──done──▶ editing (still shown) / ──error──▶ editing (testError)
 *   editing ──form.save──▶ validating ──ok──▶ saving ──done──▶ saved (final, output = the saved camera)
 *                                                     ──error──▶ editing (saveError; nothing lost)
 *   validating ──invalid──▶ editing (errors per field)       testing ──form.cancelTest──▶ editing
 *
 * Effects are actors provided by src/console/features/ipCameras/actors.ts: `testStill` (the device's
 * ip-camera-still over the peer link, with the credentials typed in the form) and `saveCamera` (POST or PUT).
 * Editing a camera whose password is kept: an empty password field keeps it (`password` undefined).
 */
import { assign, fromPromise, setup } from 'xstate';
import { IP_CAMERA_LABEL_MAX, IpCameraUrl, type ManagedIpCamera } from '../../src/protocol/ipCameras';

/** The form's fields. `password` '' = keep the stored one when editing (none when adding). */
export interface IpCameraDraft {
  label: string;
  url: string;
  deviceId: string;
  username: string;
  password: string;
  /** Editing: remove the stored password. */
  clearPassword: boolean;
}

/** Field error codes (the console translates them). */
export type IpCameraFieldError =
  'labelRequired' | 'labelTooLong' | 'urlInvalid' | 'urlCredentials' | 'deviceRequired';
export type IpCameraErrors = Partial<Record<'label' | 'url' | 'deviceId', IpCameraFieldError>>;

/** A still as the device sent it (PNG data URL, pixels). */
export interface IpCameraStill {
  image: string;
  width: number;
  height: number;
}

export interface IpCameraFormInput {
  /** The camera edited, or null to add one. */
  camera: ManagedIpCamera | null;
  /** The device preselected when adding (the only one, or the one the user came from). */
  deviceId?: string;
}

export interface IpCameraFormContext {
  cameraId: string | null;
  hasPassword: boolean;
  draft: IpCameraDraft;
  errors: IpCameraErrors;
  intent: 'test' | 'save';
  still: IpCameraStill | null;
  testError: { code: string; message: string } | null;
  saveError: { code: string; message: string } | null;
  saved: ManagedIpCamera | null;
}

export type IpCameraFormEvent =
  | { type: 'form.change'; patch: Partial<IpCameraDraft> }
  | { type: 'form.test' }
  | { type: 'form.cancelTest' }
  | { type: 'form.save' };

/** What testStill gets. */
export interface TestStillInput {
  deviceId: string;
  url: string;
  username: string | null;
  password: string | null;
}
/** What saveCamera gets: the id (null = add) and the route body (password undefined = keep). */
export interface SaveCameraInput {
  cameraId: string | null;
  body: {
    label: string;
    url: string;
    device_id: string;
    username: string | null;
    password?: string | null;
  };
}

/** §5: the field errors of a draft (empty when it can be sent). */
export function validateIpCamera(d: IpCameraDraft): IpCameraErrors {
  const errors: IpCameraErrors = {};
  const label = d.label.trim();
  if (!label) errors.label = 'labelRequired';
  else if (label.length > IP_CAMERA_LABEL_MAX) errors.label = 'labelTooLong';
  const url = IpCameraUrl.safeParse(d.url);
  if (!url.success) {
    errors.url = /^[a-z]+:\/\/[^/\s]*@/i.test(d.url.trim()) ? 'urlCredentials' : 'urlInvalid';
  }
  if (!d.deviceId) errors.deviceId = 'deviceRequired';
  return errors;
}

const asCoded = (e: unknown) => ({
  code: String((e as { code?: unknown })?.code ?? 'error'),
  message: e instanceof Error ? e.message : String(e),
});

const notProvided = (name: string): never => {
  throw new Error(`ipCameraForm: actor '${name}' is not provided`);
};

/** The form's effects; src/console/features/ipCameras/actors.ts provides them. */
export const ipCameraFormActors = {
  /** ip-camera-still on the device that reaches the camera. */
  testStill: fromPromise<IpCameraStill, TestStillInput>(async () => notProvided('testStill')),
  /** POST ip-cameras or PUT ip-cameras/:id → the saved camera. */
  saveCamera: fromPromise<ManagedIpCamera, SaveCameraInput>(async () => notProvided('saveCamera')),
};

const blank = (s: string) => (s.trim() === '' ? null : s);

export const ipCameraFormMachine = setup({
  types: {
    context: {} as IpCameraFormContext,
    events: {} as IpCameraFormEvent,
    input: {} as IpCameraFormInput,
    output: {} as { camera: ManagedIpCamera | null },
  },
  actors: ipCameraFormActors,
  guards: {
    invalid: ({ context }) => Object.keys(validateIpCamera(context.draft)).length > 0,
    wantsTest: ({ context }) => context.intent === 'test',
  },
}).createMachine({
  id: 'ipCameraForm',
  context: ({ input }) => ({
    cameraId: input.camera?.id ?? null,
    hasPassword: input.camera?.has_password ?? false,
    draft: {
      label: input.camera?.label ?? '',
      url: input.camera?.url ?? '',
      deviceId: input.camera?.device_id ?? input.deviceId ?? '',
      username: input.camera?.username ?? '',
      password: '',
      clearPassword: false,
    },
    errors: {},
    intent: 'save',
    still: null,
    testError: null,
    saveError: null,
    saved: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'form.change': {
          actions: assign(({ context, event }) => {
            const draft = { ...context.draft, ...event.patch };
            const moved = draft.url !== context.draft.url || draft.deviceId !== context.draft.deviceId;
            const errors = { ...context.errors };
            for (const k of Object.keys(event.patch)) delete errors[k as keyof IpCameraErrors];
            return { draft, errors, still: moved ? null : context.still, testError: null, saveError: null };
          }),
        },
        'form.test': { target: 'validating', actions: assign({ intent: 'test' as const }) },
        'form.save': { target: 'validating', actions: assign({ intent: 'save' as const }) },
      },
    },
    validating: {
      always: [
        {
          guard: 'invalid',
          target: 'editing',
          actions: assign({ errors: ({ context }) => validateIpCamera(context.draft) }),
        },
        { guard: 'wantsTest', target: 'testing' },
        { target: 'saving' },
      ],
    },
    testing: {
      entry: assign({ still: null, testError: null, errors: {} }),
      invoke: {
        id: 'testStill',
        src: 'testStill',
        input: ({ context: { draft } }) => ({
          deviceId: draft.deviceId,
          url: draft.url.trim(),
          username: blank(draft.username),
          password: blank(draft.password),
        }),
        onDone: { target: 'editing', actions: assign({ still: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: assign({ testError: ({ event }) => asCoded(event.error) }) },
      },
      on: { 'form.cancelTest': 'editing' },
    },
    saving: {
      entry: assign({ saveError: null, errors: {} }),
      invoke: {
        id: 'saveCamera',
        src: 'saveCamera',
        input: ({ context: { draft, cameraId } }): SaveCameraInput => ({
          cameraId,
          body: {
            label: draft.label.trim(),
            url: draft.url.trim(),
            device_id: draft.deviceId,
            username: blank(draft.username),
            // Adding: the typed password or none. Editing: typed = replace, cleared = remove, empty = keep.
            ...(draft.password !== ''
              ? { password: draft.password }
              : cameraId === null || draft.clearPassword
                ? { password: null }
                : {}),
          },
        }),
        onDone: { target: 'saved', actions: assign({ saved: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: assign({ saveError: ({ event }) => asCoded(event.error) }) },
      },
    },
    saved: { type: 'final' },
  },
  output: ({ context }) => ({ camera: context.saved }),
});
