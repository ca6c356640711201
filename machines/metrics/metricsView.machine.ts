/**
 * One device's metrics tab (issue 16 §1 "Metrics"; §7 get-metrics-info, change-save-metrics-info, get-usages;
 * §9 device score). Spawned by the `metrics` actor per open device tab (input { deviceId }).
 *
 * Three parallel regions:
 * - `history`: `loading` the chosen range (1 h, 6 h, 24 h; `loadHistory` provided: get-metrics-info with its
 *   chunks) → `ready`, or `failed` (`metrics.retry`, or
 *   by itself after HISTORY_RETRY_MS). `metrics.range` loads another range; live points older
 *   than the new history's end are dropped.
 * - `live`: while on and the tab is visible, `readUsages` (get-usages) every LIVE_POLL_MS; each answer is a
 *   point appended after the history. `metrics.live` { on } toggles it; `metrics.visible` { visible: false }
 *   pauses it (`paused`) until visible again. A failed read keeps `liveError` and tries again later.
 * - `settings`: `settings.save` { settings } checks them (settingsProblem) → `saving` (`saveSettings`
 *   provided: change-save-metrics-info) → `saved` | `failed`; a refused form stays `invalid` with its problem.
 * Tags: 'loading' (history loading), 'saving'.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  appendLive,
  liveOf,
  METRICS_POINTS,
  METRICS_RANGES,
  settingsProblem,
  type HistoryData,
  type LivePoint,
  type MetricsRange,
  type SaveSettings,
  type UsagesLike,
} from './metricsData';

/** How often live usages are read while the tab is visible, ms. */
export const LIVE_POLL_MS = 3_000;
/** A failed history load is tried again after this long (the device link may open meanwhile), ms. */
export const HISTORY_RETRY_MS = 10_000;

export interface MetricsViewInput {
  deviceId: string;
  /** The range shown first (default '1h'). */
  range?: MetricsRange;
  /** Clock, ms since the epoch (tests); default Date.now. */
  now?: () => number;
}

export interface MetricsViewContext {
  deviceId: string;
  now: () => number;
  range: MetricsRange;
  history: HistoryData | null;
  historyError: string | null;
  live: LivePoint[];
  /** The last get-usages answer (current values, §9 score). */
  usages: UsagesLike | null;
  liveError: string | null;
  /** The device's saving settings (from the history, then from a save). */
  settings: SaveSettings | null;
  settingsProblem: 'interval' | 'retention' | 'tooMany' | null;
  settingsError: string | null;
}

export type MetricsViewEvent =
  | { type: 'metrics.range'; range: MetricsRange }
  | { type: 'metrics.retry' }
  | { type: 'metrics.live'; on: boolean }
  | { type: 'metrics.visible'; visible: boolean }
  | { type: 'settings.save'; settings: SaveSettings };

export interface LoadHistoryInput {
  deviceId: string;
  from: number;
  to: number;
  maxPoints: number;
}

const notProvided = (name: string): never => {
  throw new Error(`metricsView: actor '${name}' is not provided`);
};

export const metricsViewActors = {
  /** get-metrics-info with its progress chunks → the history (metricsData.assembleHistory). */
  loadHistory: fromPromise<HistoryData, LoadHistoryInput>(async () => notProvided('loadHistory')),
  /** get-usages → the device's usages now. */
  readUsages: fromPromise<UsagesLike, { deviceId: string }>(async () => notProvided('readUsages')),
  /** change-save-metrics-info → the settings in force. */
  saveSettings: fromPromise<SaveSettings, { deviceId: string; settings: SaveSettings }>(async () =>
    notProvided('saveSettings'),
  ),
};

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export const metricsViewMachine = setup({
  types: {
    context: {} as MetricsViewContext,
    events: {} as MetricsViewEvent,
    input: {} as MetricsViewInput,
  },
  actors: metricsViewActors,
  guards: {
    otherRange: ({ context, event }) => event.type === 'metrics.range' && event.range !== context.range,
    turnOn: ({ event }) => event.type === 'metrics.live' && event.on,
    turnOff: ({ event }) => event.type === 'metrics.live' && !event.on,
    hidden: ({ event }) => event.type === 'metrics.visible' && !event.visible,
    shown: ({ event }) => event.type === 'metrics.visible' && event.visible,
    settingsFine: ({ event }) => event.type === 'settings.save' && settingsProblem(event.settings) === null,
  },
  actions: {
    setRange: assign(({ event }) => (event.type === 'metrics.range' ? { range: event.range } : {})),
    keepHistory: assign(({ context }, history: HistoryData) => ({
      history,
      historyError: null,
      settings: history.settings,
      live: context.live.filter((p) => p.time > history.to),
    })),
    keepHistoryError: assign((_, { error }: { error: unknown }) => ({ historyError: message(error) })),
    keepUsages: assign(({ context }, usages: UsagesLike) => ({
      usages,
      liveError: null,
      live: appendLive(context.live, liveOf(usages, context.now())),
    })),
    keepLiveError: assign((_, { error }: { error: unknown }) => ({ liveError: message(error) })),
    refuseSettings: assign(({ event }) =>
      event.type === 'settings.save'
        ? { settingsProblem: settingsProblem(event.settings), settingsError: null }
        : {},
    ),
    clearSettingsProblem: assign({ settingsProblem: null, settingsError: null }),
    keepSettings: assign((_, settings: SaveSettings) => ({ settings, settingsError: null })),
    keepSettingsError: assign((_, { error }: { error: unknown }) => ({ settingsError: message(error) })),
  },
  delays: { poll: LIVE_POLL_MS, retry: HISTORY_RETRY_MS },
}).createMachine({
  id: 'metricsView',
  type: 'parallel',
  context: ({ input }) => ({
    deviceId: input.deviceId,
    now: input.now ?? Date.now,
    range: input.range ?? '1h',
    history: null,
    historyError: null,
    live: [],
    usages: null,
    liveError: null,
    settings: null,
    settingsProblem: null,
    settingsError: null,
  }),
  states: {
    history: {
      initial: 'loading',
      on: {
        'metrics.range': { guard: 'otherRange', target: '.loading', actions: 'setRange', reenter: true },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadHistory',
            src: 'loadHistory',
            input: ({ context }) => {
              const to = context.now();
              return {
                deviceId: context.deviceId,
                from: to - METRICS_RANGES[context.range],
                to,
                maxPoints: METRICS_POINTS,
              };
            },
            onDone: {
              target: 'ready',
              actions: { type: 'keepHistory', params: ({ event }) => event.output },
            },
            onError: {
              target: 'failed',
              actions: { type: 'keepHistoryError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        ready: {},
        failed: { on: { 'metrics.retry': { target: 'loading' } }, after: { retry: { target: 'loading' } } },
      },
    },
    live: {
      initial: 'on',
      states: {
        off: { on: { 'metrics.live': { guard: 'turnOn', target: 'on' } } },
        on: {
          initial: 'reading',
          on: {
            'metrics.live': { guard: 'turnOff', target: 'off' },
            'metrics.visible': { guard: 'hidden', target: '.paused' },
          },
          states: {
            reading: {
              invoke: {
                id: 'readUsages',
                src: 'readUsages',
                input: ({ context }) => ({ deviceId: context.deviceId }),
                onDone: {
                  target: 'waiting',
                  actions: { type: 'keepUsages', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'waiting',
                  actions: { type: 'keepLiveError', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
            waiting: { after: { poll: { target: 'reading' } } },
            paused: { on: { 'metrics.visible': { guard: 'shown', target: 'reading' } } },
          },
        },
      },
    },
    settings: {
      initial: 'idle',
      on: {
        'settings.save': [
          { guard: 'settingsFine', target: '.saving', actions: 'clearSettingsProblem' },
          { target: '.invalid', actions: 'refuseSettings' },
        ],
      },
      states: {
        idle: {},
        invalid: {},
        saving: {
          tags: ['saving'],
          on: { 'settings.save': {} }, // one save at a time
          invoke: {
            id: 'saveSettings',
            src: 'saveSettings',
            input: ({ context, event }) => ({
              deviceId: context.deviceId,
              settings: event.type === 'settings.save' ? event.settings : context.settings!,
            }),
            onDone: {
              target: 'saved',
              actions: { type: 'keepSettings', params: ({ event }) => event.output },
            },
            onError: {
              target: 'failed',
              actions: { type: 'keepSettingsError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        saved: {},
        failed: {},
      },
    },
  },
});
