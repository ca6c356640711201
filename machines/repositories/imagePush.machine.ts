/**
 * The tag list's push dialog — spec §4 "Image push: started, error, successful": the server pushes a tag of
 * a repository of the project under a new tag, in the same or another repository (src/protocol/repositories.ts
 * `repositories.push`: a manifest copy with cross-repository blob mounts, as `docker tag` + `docker push`).
 *
 * idle → (push.start, a valid target) → started → successful | error; from successful or error another
 * push.start starts again, push.reset returns to idle. A target tag or repository that breaks the OCI grammar
 * stays in idle with `invalid` set, without calling the server. Emits a `notice` toast on success and on
 * failure. Pure: the call is the provided actor `pushImage`. Tags: `busy` while started.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import { REPOSITORY_ALIAS_PATTERN, TAG_PATTERN } from '../../src/protocol/repositories';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** A push request: `alias:tag` → `targetRepository:targetTag` (targetRepository null: the same repository). */
export interface PushRequest {
  alias: string;
  tag: string;
  targetRepository: string | null;
  targetTag: string;
}
/** What the server answers: the full target repository, tag, digest and its pull command. */
export interface PushResult {
  repository: string;
  tag: string;
  digest: string;
  pull_command: string;
}

export interface ImagePushContext {
  request: PushRequest | null;
  result: PushResult | null;
  error: string | null;
  /** Which field of the last push.start broke the grammar, null when none. */
  invalid: 'targetTag' | 'targetRepository' | null;
}

export type ImagePushEvent = ({ type: 'push.start' } & PushRequest) | { type: 'push.reset' };

/** Which field of a request breaks the OCI grammar (source included), null when it is valid. */
export function invalidField(r: PushRequest): ImagePushContext['invalid'] {
  if (!TAG_PATTERN.test(r.targetTag) || !TAG_PATTERN.test(r.tag)) return 'targetTag';
  if (!REPOSITORY_ALIAS_PATTERN.test(r.alias)) return 'targetRepository';
  if (r.targetRepository !== null && !REPOSITORY_ALIAS_PATTERN.test(r.targetRepository))
    return 'targetRepository';
  return null;
}

const requestOf = (e: ImagePushEvent): PushRequest | null =>
  e.type === 'push.start'
    ? { alias: e.alias, tag: e.tag, targetRepository: e.targetRepository || null, targetTag: e.targetTag }
    : null;

export const imagePushMachine = setup({
  types: {
    context: {} as ImagePushContext,
    events: {} as ImagePushEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    pushImage: fromPromise<PushResult, PushRequest>(async () => {
      throw new Error('imagePush: pushImage is not provided');
    }),
  },
  guards: {
    valid: ({ event }) => {
      const r = requestOf(event);
      return !!r && invalidField(r) === null;
    },
  },
  actions: {
    begin: assign(({ event }) => ({ request: requestOf(event), result: null, error: null, invalid: null })),
    refuse: assign(({ event }) => ({ invalid: invalidField(requestOf(event)!), error: null, result: null })),
  },
}).createMachine({
  id: 'imagePush',
  context: { request: null, result: null, error: null, invalid: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'push.start': [{ guard: 'valid', target: 'started', actions: 'begin' }, { actions: 'refuse' }],
      },
    },
    started: {
      tags: ['busy'],
      invoke: {
        id: 'pushImage',
        src: 'pushImage',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'successful',
          actions: [
            assign({ result: ({ event }) => event.output }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Image pushed',
              message: `${event.output.repository}:${event.output.tag}`,
              i18n: {
                title: { key: 'repositories.pushed' },
                message: {
                  key: 'repositories.pushedMessage',
                  values: { ref: `${event.output.repository}:${event.output.tag}` },
                },
              },
            })),
          ],
        },
        onError: {
          target: 'error',
          actions: [
            assign({ error: ({ event }) => errorText(event.error, 'The image could not be pushed.') }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'danger' as const,
              title: 'Image push failed',
              message: errorText(event.error, 'The image could not be pushed.'),
              i18n: { title: { key: 'repositories.pushFailed' } },
            })),
          ],
        },
      },
    },
    successful: {
      on: {
        'push.start': [
          { guard: 'valid', target: 'started', actions: 'begin' },
          { target: 'idle', actions: 'refuse' },
        ],
        'push.reset': {
          target: 'idle',
          actions: assign({ request: null, result: null, error: null, invalid: null }),
        },
      },
    },
    error: {
      on: {
        'push.start': [
          { guard: 'valid', target: 'started', actions: 'begin' },
          { target: 'idle', actions: 'refuse' },
        ],
        'push.reset': {
          target: 'idle',
          actions: assign({ request: null, result: null, error: null, invalid: null }),
        },
      },
    },
  },
});
