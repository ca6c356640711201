/**
 * The logs registry (systemId 'logs'; issue 16 "Logs"; §3 Log info: currentDeviceId, logs (each with uuid),
 * topics, subtopics). Long-lived, one per console.
 *
 * - `logs.select` { deviceId } sets currentDeviceId (the /logs screen's device) and loads its topics once.
 * - `logs.loadInfo` { deviceId } (re)loads a device's topics and subtopics: the `loadInfo` callback actor
 *   (provided: log-info) sends back `logs.infoLoaded` or `logs.infoFailed`.
 * - `logs.open` { id, deviceId, topic, subtopic, count, follow } spawns one logTail machine for the viewer `id`
 *   (an open one of the same viewer is replaced; its logTail id is `<id>-<n>`, n counting opens, so each log
 *   process has its own uuid); `logs.close` { id } stops it (its follow ends on the
 *   device), `logs.reset` (sign-out) stops every one and forgets everything.
 */
import { assign, enqueueActions, fromCallback, setup, stopChild, type ActorRefFrom } from 'xstate';
import { logTailMachine, type LogTailInput } from './logTail.machine';

export interface LogTopicInfo {
  topic: string;
  subtopics: string[];
}

/** A device's topics (§3 Log info) as last loaded. */
export interface DeviceLogInfo {
  status: 'loading' | 'ready' | 'failed';
  topics: LogTopicInfo[];
  error: string | null;
}

export interface OpenLog {
  id: string;
  deviceId: string;
  topic: string;
  subtopic: string;
  ref: ActorRefFrom<typeof logTailMachine>;
}

export interface LogsContext {
  currentDeviceId: string | null;
  /** Logs opened so far: numbers each open log, so every log process has a uuid of its own. */
  opened: number;
  logs: OpenLog[];
  info: Record<string, DeviceLogInfo>;
}

export type LogsEvent =
  | { type: 'logs.select'; deviceId: string | null }
  | { type: 'logs.loadInfo'; deviceId: string }
  | { type: 'logs.infoLoaded'; deviceId: string; topics: LogTopicInfo[] }
  | { type: 'logs.infoFailed'; deviceId: string; message: string }
  | ({ type: 'logs.open' } & LogTailInput)
  | { type: 'logs.close'; id: string }
  | { type: 'logs.reset' };

export const logsActors = {
  /** log-info of `deviceId` → sends back logs.infoLoaded or logs.infoFailed once. */
  loadInfo: fromCallback<LogsEvent, { deviceId: string }>(() => {
    throw new Error("logs: actor 'loadInfo' is not provided");
  }),
  logTail: logTailMachine,
};

const infoId = (deviceId: string) => `info:${deviceId}`;
const tailId = (id: string) => `tail:${id}`;

export const logsMachine = setup({
  types: {
    context: {} as LogsContext,
    events: {} as LogsEvent,
  },
  actors: logsActors,
  actions: {
    select: assign(({ event }) => (event.type === 'logs.select' ? { currentDeviceId: event.deviceId } : {})),
    loadInfo: assign(({ context, event, spawn }) => {
      if (event.type !== 'logs.select' && event.type !== 'logs.loadInfo') return {};
      const deviceId = event.deviceId;
      if (deviceId === null) return {};
      const known = context.info[deviceId];
      if (
        known &&
        (known.status === 'loading' || (event.type === 'logs.select' && known.status === 'ready'))
      ) {
        return {};
      }
      spawn('loadInfo', { id: infoId(deviceId), input: { deviceId } });
      return {
        info: {
          ...context.info,
          [deviceId]: { status: 'loading' as const, topics: known?.topics ?? [], error: null },
        },
      };
    }),
    infoDone: assign(({ context, event }) => {
      if (event.type === 'logs.infoLoaded') {
        return {
          info: { ...context.info, [event.deviceId]: { status: 'ready', topics: event.topics, error: null } },
        };
      }
      if (event.type === 'logs.infoFailed') {
        const topics = context.info[event.deviceId]?.topics ?? [];
        return {
          info: { ...context.info, [event.deviceId]: { status: 'failed', topics, error: event.message } },
        };
      }
      return {};
    }),
    stopInfo: stopChild(({ event }) =>
      event.type === 'logs.infoLoaded' || event.type === 'logs.infoFailed' ? infoId(event.deviceId) : '',
    ),
    stopTail: stopChild(({ event }) =>
      event.type === 'logs.open' || event.type === 'logs.close' ? tailId(event.id) : '',
    ),
    forget: assign(({ context, event }) =>
      event.type === 'logs.open' || event.type === 'logs.close'
        ? { logs: context.logs.filter((l) => l.id !== event.id) }
        : {},
    ),
    open: assign(({ context, event, spawn }) => {
      if (event.type !== 'logs.open') return {};
      const input: LogTailInput = {
        id: `${event.id}-${context.opened + 1}`,
        deviceId: event.deviceId,
        topic: event.topic,
        subtopic: event.subtopic,
        count: event.count,
        follow: event.follow,
      };
      const ref = spawn('logTail', { id: tailId(event.id), input });
      return {
        opened: context.opened + 1,
        logs: [
          ...context.logs,
          { id: event.id, deviceId: event.deviceId, topic: event.topic, subtopic: event.subtopic, ref },
        ],
      };
    }),
    clear: enqueueActions(({ context, enqueue }) => {
      for (const log of context.logs) enqueue.stopChild(log.ref);
      for (const [deviceId, info] of Object.entries(context.info)) {
        if (info.status === 'loading') enqueue.stopChild(infoId(deviceId));
      }
      // `opened` is kept: a log process of this browser must never get a uuid the device may still follow.
      enqueue.assign({ currentDeviceId: null, logs: [], info: {} });
    }),
  },
}).createMachine({
  id: 'logs',
  context: { currentDeviceId: null, opened: 0, logs: [], info: {} },
  on: {
    'logs.select': { actions: ['select', 'loadInfo'] },
    'logs.loadInfo': { actions: 'loadInfo' },
    'logs.infoLoaded': { actions: ['infoDone', 'stopInfo'] },
    'logs.infoFailed': { actions: ['infoDone', 'stopInfo'] },
    'logs.open': { actions: ['stopTail', 'forget', 'open'] },
    'logs.close': { actions: ['stopTail', 'forget'] },
    'logs.reset': { actions: 'clear' },
  },
});
