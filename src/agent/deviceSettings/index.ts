/**
 * The device's settings part (spec §7 "Client and settings" and "Settings changes"; src/protocol/deviceSettings.ts):
 * the four sections of get-device-settings-info, their changes, force-refresh, the client-engine and FRP
 * restarts, connect-cie and get-home-path. Settings live in `<stateDir>/settings.json` (store.ts: atomic
 * writes, a corrupt file gives the defaults and a warning). `host` asks this machine for what is real
 * (system.ts hostSystem: the home, systemd start-at-boot, frpc, nvpmodel); `sim` simulates (simSystem).
 *
 * Methods throw CommandError (code SETTINGS_ERROR_CODES or the link's) when the device refuses; the handlers
 * turn that into §8's `{ data: null, error }`.
 */
import { agentVersion } from '../version';
import {
  SETTINGS_ERROR_CODES,
  SETTINGS_EVENTS,
  SETTINGS_TEXTS,
  type AllSettingsInfo,
  type CieState,
  type ClientEngineInfo,
  type ConnectionAlertInput,
  type DeviceSettingsInfo,
  type GeneralSettingsInfo,
  type JetsonServiceInput,
  type LogSettingsInput,
  type MetricsAlertInput,
  type SettingsInfoType,
  type SystemChecksInput,
} from '../../protocol/deviceSettings';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';
import { MetricAlertWatcher, type MetricAlert } from './alerts';
import { SettingsStore, type StoredSettings } from './store';
import { hostSystem, simSystem, type SettingsSystem } from './system';

export { exceeded, type MetricAlert } from './alerts';
export { DEFAULT_SETTINGS, SETTINGS_FILE, SettingsStore, type StoredSettings } from './store';
export { hostSystem, simSystem, type SettingsSystem } from './system';

/** Event broadcast on the device link after a change, a refresh or a restart: `{ infoType | null }`. */
export const SETTINGS_CHANGED_EVENT = SETTINGS_EVENTS.changed;

export interface DeviceSettings {
  /** get-home-path: the home directory of the client's user. */
  homePath(): string;
  /** get-settings-info: every section (read from memory; the file is read at start and on refresh). */
  all(): Promise<AllSettingsInfo>;
  /** get-device-settings-info: one section. */
  section(infoType: SettingsInfoType): Promise<DeviceSettingsInfo>;
  /** force-refresh-device-settings: re-reads the file, then every section. */
  refresh(): Promise<AllSettingsInfo>;
  /** restart-client-engine: restarts the in-process engine (re-reads the settings); answers when done. */
  restartClientEngine(): Promise<{ restartedAt: number; tookMs: number }>;
  /** restart-frp-client: answers when the FRP client has restarted. */
  restartFrpClient(): Promise<{ restartedAt: number; service: string }>;
  /** connect-cie: reaches the CIE, stores its url and the connection. */
  connectCie(url: string): Promise<CieState>;
  changeStartup(enabled: boolean): Promise<DeviceSettingsInfo>;
  changeConnectionAlert(input: ConnectionAlertInput): Promise<DeviceSettingsInfo>;
  changeMetricsAlert(input: MetricsAlertInput): Promise<DeviceSettingsInfo>;
  changeClientLog(input: LogSettingsInput): Promise<DeviceSettingsInfo>;
  changeStreamEngineLog(input: LogSettingsInput): Promise<DeviceSettingsInfo>;
  /** Refused with 'unsupported' (SETTINGS_TEXTS.jetsonOnly) on x86. */
  changeJetsonService(input: JetsonServiceInput): Promise<DeviceSettingsInfo>;
  changeSystemChecks(input: SystemChecksInput): Promise<DeviceSettingsInfo>;
  /** Compares the metrics with the alert thresholds now (the timer does it every intervalS); the new alerts. */
  checkAlerts(): Promise<MetricAlert[]>;
  /** Stops what the part runs (the alert timer); idempotent. */
  close(): Promise<void>;
}

/** Extra choices for tests: the machine to ask (default by deps.mode). */
export interface DeviceSettingsOptions {
  system?: SettingsSystem;
}

export function createDeviceSettings(
  deps: AgentPartDeps,
  options: DeviceSettingsOptions = {},
): DeviceSettings {
  const store = new SettingsStore(deps.stateDir, deps.log);
  const system = options.system ?? (deps.mode === 'host' ? hostSystem() : simSystem());
  const kind = deps.backend.kind;
  const version = agentVersion();
  let engineRestartedAt: number | null = null;
  let current: Promise<StoredSettings> = store.read();
  const alerts = new MetricAlertWatcher({
    usages: () => deps.backend.usages(0),
    report: (alert) => {
      try {
        deps.broadcast(SETTINGS_EVENTS.metricAlert, { ...alert, label: deps.label });
      } catch (err) {
        deps.log.warn('settings: broadcast failed', { error: errorMessage(err) });
      }
    },
    log: deps.log,
  });
  void current.then((s) => alerts.apply(s.metricsAlert));

  const broadcast = (infoType: SettingsInfoType | null) => {
    try {
      deps.broadcast(SETTINGS_CHANGED_EVENT, { infoType });
    } catch (err) {
      deps.log.warn('settings: broadcast failed', { error: errorMessage(err) });
    }
  };

  const general = async (s: StoredSettings): Promise<GeneralSettingsInfo> => {
    const startup = await system.readStartup(s.startAtBoot);
    return {
      homePath: system.homePath(),
      startAtBoot: startup.enabled,
      startAtBootSupported: startup.supported,
      startAtBootNote: startup.note,
      connectionAlert: s.connectionAlert,
    };
  };
  const clientEngine = async (s: StoredSettings): Promise<ClientEngineInfo> => ({
    clientVersion: version,
    kind,
    clientLog: s.clientLog,
    streamEngineLog: s.streamEngineLog,
    jetsonService: kind === 'jetson' ? await system.readJetson(s.jetsonService) : null,
    engineRestartedAt,
    cie: s.cie,
  });

  const sectionOf = async (s: StoredSettings, infoType: SettingsInfoType): Promise<DeviceSettingsInfo> => {
    switch (infoType) {
      case 'general-settings-info':
        return { infoType, info: await general(s) };
      case 'client-engine-info':
        return { infoType, info: await clientEngine(s) };
      case 'alert-metrics-settings-info':
        return { infoType, info: s.metricsAlert };
      case 'system-check-settings-info':
        return { infoType, info: s.systemChecks };
    }
  };

  const allOf = async (s: StoredSettings): Promise<AllSettingsInfo> => ({
    homePath: system.homePath(),
    'client-engine-info': await clientEngine(s),
    'general-settings-info': await general(s),
    'alert-metrics-settings-info': s.metricsAlert,
    'system-check-settings-info': s.systemChecks,
  });

  /**
   * Applies `patch` to the settings after `act` succeeded (in order with other changes), writes the file and
   * answers the changed section read back. A failed write keeps the previous settings ('failed').
   */
  let changes: Promise<unknown> = Promise.resolve();
  const change = (
    infoType: SettingsInfoType,
    patch: (s: StoredSettings) => Partial<StoredSettings>,
    act?: () => Promise<void>,
  ): Promise<DeviceSettingsInfo> => {
    const next = changes.then(async () => {
      const before = await current;
      if (act) await act();
      const after: StoredSettings = { ...before, ...patch(before) };
      try {
        await store.write(after);
      } catch (err) {
        throw new CommandError(
          SETTINGS_ERROR_CODES.failed,
          `The settings could not be saved: ${errorMessage(err)}`,
        );
      }
      current = Promise.resolve(after);
      if (after.metricsAlert !== before.metricsAlert) alerts.apply(after.metricsAlert);
      broadcast(infoType);
      return sectionOf(after, infoType);
    });
    changes = next.catch(() => undefined);
    return next;
  };

  return {
    homePath: () => system.homePath(),
    all: async () => allOf(await current),
    section: async (infoType) => sectionOf(await current, infoType),
    async refresh() {
      await changes;
      current = store.read();
      alerts.apply((await current).metricsAlert);
      broadcast(null);
      return allOf(await current);
    },
    async restartClientEngine() {
      const started = Date.now();
      await changes;
      // The in-process engine: its settings are read again from disk and applied from scratch.
      current = store.read();
      const s = await current;
      alerts.apply(s.metricsAlert);
      deps.log.info('settings: client engine restarted', {
        clientLog: s.clientLog.level,
        streamEngineLog: s.streamEngineLog.level,
      });
      engineRestartedAt = Date.now();
      broadcast('client-engine-info');
      return { restartedAt: engineRestartedAt, tookMs: engineRestartedAt - started };
    },
    async restartFrpClient() {
      const service = await system.restartFrp();
      return { restartedAt: Date.now(), service };
    },
    async connectCie(url) {
      await system.reachCie(url);
      const cie: CieState = { url, connected: true, connectedAt: Date.now() };
      await change('client-engine-info', () => ({ cie }));
      return cie;
    },
    changeStartup: (enabled) =>
      change(
        'general-settings-info',
        () => ({ startAtBoot: enabled }),
        () => system.setStartup(enabled),
      ),
    changeConnectionAlert: (input) => change('general-settings-info', () => ({ connectionAlert: input })),
    changeMetricsAlert: (input) => change('alert-metrics-settings-info', () => ({ metricsAlert: input })),
    changeClientLog: (input) => change('client-engine-info', () => ({ clientLog: input })),
    changeStreamEngineLog: (input) => change('client-engine-info', () => ({ streamEngineLog: input })),
    changeJetsonService(input) {
      if (kind !== 'jetson') {
        return Promise.reject(new CommandError(SETTINGS_ERROR_CODES.unsupported, SETTINGS_TEXTS.jetsonOnly));
      }
      return change(
        'client-engine-info',
        () => ({ jetsonService: input }),
        () => system.applyJetson(input),
      );
    },
    changeSystemChecks: (input) => change('system-check-settings-info', () => ({ systemChecks: input })),
    checkAlerts: () => alerts.check(),
    close: async () => {
      alerts.close();
      await changes;
    },
  };
}
