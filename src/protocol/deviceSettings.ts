/**
 * The deviceSettings feature's device commands (spec §7 "Client and settings": get-home-path,
 * get-settings-info, get-device-settings-info (infoType client-engine-info, general-settings-info,
 * alert-metrics-settings-info, system-check-settings-info), force-refresh-device-settings,
 * restart-client-engine, restart-frp-client, connect-cie; §7 "Settings changes": change-startup-info,
 * change-connection-alert-info, change-check-device-metrics-info, change-client-log-info,
 * change-stream-engine-log-info and the Jetson service change, here `change-jetson-service-info`; §8 "Device
 * setting calls return data null plus the error on failure"; §9 optional checks DNS, time, IP).
 *
 * The spec gives no field of any of these ("not shown"): the fields below are ours, documented with units.
 * Every reply is `{ data, error }` (SettingsReply): on success data is the answer and error null; when the
 * device refuses or fails (§8) data is null and error `{ code, message }` says why in words the user can act
 * on. A payload that does not fit its schema is refused before any handler runs (link reply `ok: false`,
 * code 'invalid_payload'), as for every command.
 *
 * The system-check settings (§9 DNS, time, IP) have no change command in §7; `change-system-check-info` is ours.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { LinkError } from './link';

/** §7 get-device-settings-info infoType: the four sections of a device's settings. */
export const SETTINGS_INFO_TYPES = [
  'client-engine-info',
  'general-settings-info',
  'alert-metrics-settings-info',
  'system-check-settings-info',
] as const;
export const SettingsInfoType = z.enum(SETTINGS_INFO_TYPES);
export type SettingsInfoType = z.infer<typeof SettingsInfoType>;

/** Log levels of the client (agent) and of the stream engine, most verbose first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export const LogLevel = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevel>;

/** Limits of the settings' numbers (units in the names): the forms check the same before sending. */
export const SETTINGS_LIMITS = {
  /** Delay before a lost connection raises an alert, s. */
  connectionAlertDelayS: { min: 10, max: 3600 },
  /** How often metrics are compared with their thresholds, s. */
  checkIntervalS: { min: 5, max: 3600 },
  /** CPU / GPU / memory use thresholds, %. */
  percent: { min: 1, max: 100 },
  /** Temperature threshold, °C. */
  temperatureC: { min: 30, max: 110 },
  /** How long log files are kept, days. */
  retentionDays: { min: 1, max: 90 },
  /** Jetson nvpmodel power mode id. */
  powerMode: { min: 0, max: 15 },
} as const;

const int = (limits: { min: number; max: number }) => z.number().int().min(limits.min).max(limits.max);

/** change-startup-info: start the client (agent) when the device boots. */
export const StartupInput = z.object({ enabled: z.boolean() }).strict();
/** change-connection-alert-info: alert when the device's connection is lost for longer than delayS (s). */
export const ConnectionAlertInput = z
  .object({ enabled: z.boolean(), delayS: int(SETTINGS_LIMITS.connectionAlertDelayS) })
  .strict();
/**
 * change-check-device-metrics-info: compare the device's metrics with thresholds every intervalS seconds and
 * alert when one is exceeded. cpuPercent, gpuPercent, memoryPercent: use, % (1–100); temperatureC: °C (30–110).
 */
export const MetricsAlertInput = z
  .object({
    enabled: z.boolean(),
    intervalS: int(SETTINGS_LIMITS.checkIntervalS),
    cpuPercent: int(SETTINGS_LIMITS.percent),
    gpuPercent: int(SETTINGS_LIMITS.percent),
    memoryPercent: int(SETTINGS_LIMITS.percent),
    temperatureC: int(SETTINGS_LIMITS.temperatureC),
  })
  .strict();
/** change-client-log-info / change-stream-engine-log-info: log level and how long log files are kept (days). */
export const LogSettingsInput = z
  .object({ level: LogLevel, retentionDays: int(SETTINGS_LIMITS.retentionDays) })
  .strict();
/**
 * change-jetson-service-info (§7 "a change of the Jetson service"): the nvpmodel power mode (0–15) and whether
 * jetson_clocks pins the clocks at their maximum. Refused with code 'unsupported' on x86 ("just for Jetson").
 */
export const JetsonServiceInput = z
  .object({ powerMode: int(SETTINGS_LIMITS.powerMode), jetsonClocks: z.boolean() })
  .strict();
/** change-system-check-info (ours): the §9 optional checks the device runs — DNS, time (clock), IP address. */
export const SystemChecksInput = z.object({ dns: z.boolean(), time: z.boolean(), ip: z.boolean() }).strict();

export type StartupInput = z.infer<typeof StartupInput>;
export type ConnectionAlertInput = z.infer<typeof ConnectionAlertInput>;
export type MetricsAlertInput = z.infer<typeof MetricsAlertInput>;
export type LogSettingsInput = z.infer<typeof LogSettingsInput>;
export type JetsonServiceInput = z.infer<typeof JetsonServiceInput>;
export type SystemChecksInput = z.infer<typeof SystemChecksInput>;

/**
 * general-settings-info. startAtBoot: the client starts at boot; startAtBootSupported false when the device
 * cannot say (no systemd unit for the agent), with startAtBootNote saying why (else null); homePath: as
 * get-home-path (read-only).
 */
export const GeneralSettingsInfo = z.object({
  homePath: z.string(),
  startAtBoot: z.boolean(),
  startAtBootSupported: z.boolean(),
  startAtBootNote: z.string().nullable(),
  connectionAlert: ConnectionAlertInput,
});
export type GeneralSettingsInfo = z.infer<typeof GeneralSettingsInfo>;

/** alert-metrics-settings-info: MetricsAlertInput's fields. */
export const AlertMetricsSettingsInfo = MetricsAlertInput;
export type AlertMetricsSettingsInfo = z.infer<typeof AlertMetricsSettingsInfo>;

/** The CIE connection (connect-cie): url null when never connected; connectedAt ms since the epoch. */
export const CieState = z.object({
  url: z.string().nullable(),
  connected: z.boolean(),
  connectedAt: z.number().nullable(),
});
export type CieState = z.infer<typeof CieState>;

/**
 * client-engine-info. clientVersion: the agent's version; kind: the device kind; clientLog / streamEngineLog:
 * LogSettingsInput; jetsonService: JetsonServiceInput on Jetson, null on x86; engineRestartedAt: the last
 * restart-client-engine, ms since the epoch (null: not since start); cie: CieState.
 */
export const ClientEngineInfo = z.object({
  clientVersion: z.string(),
  kind: z.enum(['jetson', 'x86']),
  clientLog: LogSettingsInput,
  streamEngineLog: LogSettingsInput,
  jetsonService: JetsonServiceInput.nullable(),
  engineRestartedAt: z.number().nullable(),
  cie: CieState,
});
export type ClientEngineInfo = z.infer<typeof ClientEngineInfo>;

/** system-check-settings-info: SystemChecksInput's fields. */
export const SystemCheckSettingsInfo = SystemChecksInput;
export type SystemCheckSettingsInfo = z.infer<typeof SystemCheckSettingsInfo>;

/** Each infoType's data. */
export interface SettingsInfoByType {
  'client-engine-info': ClientEngineInfo;
  'general-settings-info': GeneralSettingsInfo;
  'alert-metrics-settings-info': AlertMetricsSettingsInfo;
  'system-check-settings-info': SystemCheckSettingsInfo;
}

/** get-settings-info: every section at once, keyed by infoType, and the home path. */
export const AllSettingsInfo = z.object({
  homePath: z.string(),
  'client-engine-info': ClientEngineInfo,
  'general-settings-info': GeneralSettingsInfo,
  'alert-metrics-settings-info': AlertMetricsSettingsInfo,
  'system-check-settings-info': SystemCheckSettingsInfo,
});
export type AllSettingsInfo = z.infer<typeof AllSettingsInfo>;

/** §8: `{ data, error }` — data null plus the error on failure, error null on success. */
export const settingsReply = <T extends z.ZodType>(data: T) =>
  z.union([z.object({ data, error: z.null() }), z.object({ data: z.null(), error: LinkError })]);
export type SettingsReply<T> = { data: T; error: null } | { data: null; error: LinkError };

/** get-device-settings-info's data: one section, tagged with its infoType. */
export const DeviceSettingsInfo = z.discriminatedUnion('infoType', [
  z.object({ infoType: z.literal('client-engine-info'), info: ClientEngineInfo }),
  z.object({ infoType: z.literal('general-settings-info'), info: GeneralSettingsInfo }),
  z.object({ infoType: z.literal('alert-metrics-settings-info'), info: AlertMetricsSettingsInfo }),
  z.object({ infoType: z.literal('system-check-settings-info'), info: SystemCheckSettingsInfo }),
]);
export type DeviceSettingsInfo = z.infer<typeof DeviceSettingsInfo>;

/** What a change answers: the section it changed, as the device now has it (read back). */
export const ChangedSettings = DeviceSettingsInfo;

/**
 * Link events the device pushes (link.ts EventMessage names). changed: `{ infoType: SettingsInfoType | null }`
 * after a change, a refresh or a restart; metricAlert: `{ metric: 'cpu'|'gpu'|'memory'|'temperature', value,
 * threshold, at, label }` when a metric goes over its alert threshold (value/threshold in % or °C, at in ms
 * epoch, label: the device's name).
 */
export const SETTINGS_EVENTS = { changed: 'settings.changed', metricAlert: 'settings.metricAlert' } as const;

/** Error codes of `{ data: null, error }` settings replies (besides the link's own). */
export const SETTINGS_ERROR_CODES = {
  /** The device cannot do this (no systemd unit, no FRP client, the Jetson service on x86). */
  unsupported: 'unsupported',
  /** The device tried and failed (a command exited non-zero, the settings file could not be written). */
  failed: 'failed',
  /** connect-cie: the CIE did not answer. */
  unreachable: 'unreachable',
} as const;

/** English texts of the device's refusals (shown as the device's error). */
export const SETTINGS_TEXTS = {
  jetsonOnly: 'The Jetson service is just for Jetson devices',
  noStartupUnit: 'This device has no systemd unit for the client, so starting at boot cannot be changed here',
  noSystemctl: 'This device has no systemctl, so starting at boot cannot be read or changed',
  noFrpClient: 'This device has no FRP client service (frpc) to restart',
} as const;

/** connect-cie payload: the CIE's address, http(s) only, at most 2048 characters. */
export const ConnectCieInput = z
  .object({
    url: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/, 'Not an http(s) URL')
      .meta({ examples: ['http://127.0.0.1:9/cie'] }),
  })
  .strict();
export type ConnectCieInput = z.infer<typeof ConnectCieInput>;

export const deviceSettingsCommands = defineCommands({
  /** The home directory of the user the client runs as (host: the real one), e.g. '/home/edge'. */
  'get-home-path': { request: Empty, reply: settingsReply(z.object({ homePath: z.string() })) },
  /** Every settings section at once (AllSettingsInfo). */
  'get-settings-info': { request: Empty, reply: settingsReply(AllSettingsInfo) },
  /** One section by infoType. */
  'get-device-settings-info': {
    request: z.object({ infoType: SettingsInfoType }).strict(),
    reply: settingsReply(DeviceSettingsInfo),
  },
  /** Re-reads the settings from the device's disk (dropping nothing saved) → every section. */
  'force-refresh-device-settings': { request: Empty, reply: settingsReply(AllSettingsInfo) },
  /** Restarts the client engine in place (re-reads its settings, restarts its in-process work); answers when done. */
  'restart-client-engine': {
    request: Empty,
    reply: settingsReply(z.object({ restartedAt: z.number(), tookMs: z.number().min(0) })),
  },
  /** Restarts the FRP client (reverse proxy); 'unsupported' when the device has none. Answers when done. */
  'restart-frp-client': {
    request: Empty,
    reply: settingsReply(z.object({ restartedAt: z.number(), service: z.string() })),
  },
  /** Connects the device to a CIE at `url` (stored when reached); 'unreachable' when it does not answer. */
  'connect-cie': { request: ConnectCieInput, reply: settingsReply(CieState) },
  'change-startup-info': { request: StartupInput, reply: settingsReply(ChangedSettings) },
  'change-connection-alert-info': { request: ConnectionAlertInput, reply: settingsReply(ChangedSettings) },
  'change-check-device-metrics-info': { request: MetricsAlertInput, reply: settingsReply(ChangedSettings) },
  'change-client-log-info': { request: LogSettingsInput, reply: settingsReply(ChangedSettings) },
  'change-stream-engine-log-info': { request: LogSettingsInput, reply: settingsReply(ChangedSettings) },
  'change-jetson-service-info': { request: JetsonServiceInput, reply: settingsReply(ChangedSettings) },
  'change-system-check-info': { request: SystemChecksInput, reply: settingsReply(ChangedSettings) },
});
