/**
 * The profile — spec §2 /profile/personal-information, §3 User info, §5 "Profile update sends the password
 * only when provided", §7 PUT user (email, username, bio, image, optional password).
 *
 * idle → profile.load → loading → ready | failed (profile.retry). In ready: profile.save { values } → saving
 * when the form is valid (else ready with `fieldErrors`) → ready with the new user (`saved`, a toast, the form
 * reset: `formVersion` + 1) | ready with the server's error on its field (Wrong_password → current password,
 * Email_taken → email) or above the form. avatar.uploaded { user } (the upload's answer) and avatar.remove →
 * removingAvatar → ready take the new user. profile.reset (sign-out) → idle, everything forgotten. The header
 * reads `user` too, so a new name or avatar shows without a reload. Pure: the calls are the provided actors
 * `loadUser`, `saveProfile`, `removeAvatar`. Tag `busy` while loading, saving or removing.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import {
  codeOf,
  fieldOfCode,
  profileUpdateOf,
  validateProfile,
  type FieldErrors,
  type ProfileFormValues,
  type ProfileUpdateBody,
  type ProfileUser,
} from './profileForm';

export interface ProfileFormContext {
  user: ProfileUser | null;
  /** Field → i18n key (profile.errors.*) or the server's text. */
  fieldErrors: FieldErrors;
  /** An error not about one field (network, server), shown above the form. */
  error: string | null;
  /** The last save succeeded (cleared by the next save). */
  saved: boolean;
  /** Bumped after every successful save: the view resets its form to the saved user. */
  formVersion: number;
}

export type ProfileFormEvent =
  | { type: 'profile.load' }
  | { type: 'profile.retry' }
  | { type: 'profile.save'; values: ProfileFormValues }
  | { type: 'avatar.uploaded'; user: ProfileUser }
  | { type: 'avatar.remove' }
  | { type: 'profile.reset' };

const INITIAL: ProfileFormContext = {
  user: null,
  fieldErrors: {},
  error: null,
  saved: false,
  formVersion: 0,
};
const notProvided = (name: string) => async (): Promise<never> => {
  throw new Error(`profile: ${name} is not provided`);
};

export const profileFormMachine = setup({
  types: {
    context: {} as ProfileFormContext,
    events: {} as ProfileFormEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** GET user-info → the user. */
    loadUser: fromPromise<ProfileUser>(notProvided('loadUser')),
    /** PUT user → the saved user. */
    saveProfile: fromPromise<ProfileUser, ProfileUpdateBody>(notProvided('saveProfile')),
    /** POST profile/avatar/remove → the user without avatar. */
    removeAvatar: fromPromise<ProfileUser>(notProvided('removeAvatar')),
  },
  guards: {
    valid: ({ context, event }) =>
      event.type === 'profile.save' &&
      context.user !== null &&
      Object.keys(validateProfile(event.values, context.user)).length === 0,
  },
  actions: {
    takeUser: assign({ user: (_, params: { user: ProfileUser }) => params.user }),
    showInvalid: assign({
      fieldErrors: ({ context, event }) =>
        event.type === 'profile.save' && context.user ? validateProfile(event.values, context.user) : {},
      error: null,
      saved: false,
    }),
    showFailure: assign((_, params: { error: unknown }) => {
      const field = fieldOfCode(codeOf(params.error));
      const text = errorText(params.error, 'The profile could not be saved.');
      return field ? { fieldErrors: { [field]: text }, error: null } : { fieldErrors: {}, error: text };
    }),
  },
}).createMachine({
  id: 'profileForm',
  context: INITIAL,
  initial: 'idle',
  on: { 'profile.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'profile.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadUser',
        src: 'loadUser',
        onDone: { target: 'ready', actions: assign({ user: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The profile could not be read.') }),
        },
      },
    },
    failed: { on: { 'profile.retry': 'loading' } },
    ready: {
      on: {
        'profile.load': 'loading',
        'profile.save': [
          {
            guard: 'valid',
            target: 'saving',
            actions: assign({ fieldErrors: {}, error: null, saved: false }),
          },
          { actions: 'showInvalid' },
        ],
        'avatar.uploaded': { actions: { type: 'takeUser', params: ({ event }) => ({ user: event.user }) } },
        'avatar.remove': { target: 'removingAvatar', actions: assign({ error: null }) },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context, event }) =>
          event.type === 'profile.save' && context.user ? profileUpdateOf(event.values, context.user) : {},
        onDone: {
          target: 'ready',
          actions: [
            { type: 'takeUser', params: ({ event }) => ({ user: event.output }) },
            assign({ saved: true, formVersion: ({ context }) => context.formVersion + 1 }),
            emit({
              type: 'notice',
              title: 'Saved',
              message: 'Your profile was saved.',
              variant: 'success',
              i18n: {
                title: { key: 'profile.personal.savedTitle' },
                message: { key: 'profile.personal.saved' },
              },
            } as const),
          ],
        },
        onError: {
          target: 'ready',
          actions: { type: 'showFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    removingAvatar: {
      tags: ['busy'],
      invoke: {
        id: 'removeAvatar',
        src: 'removeAvatar',
        onDone: {
          target: 'ready',
          actions: { type: 'takeUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The picture could not be removed.'),
          }),
        },
      },
    },
  },
});
