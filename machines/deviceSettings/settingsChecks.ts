/**
 * Pure pieces of the settings forms (spec §7 "Settings changes", src/protocol/deviceSettings.ts; no zod, so
 * the machines' chunk stays small): each infoType's fields with their limits, the form values read from a
 * section, the checks run before anything is sent (§ "Forms validate before sending"), and the change
 * commands a save sends (only the groups that changed). The limits equal the contract's SETTINGS_LIMITS
 * (checked by tests/unit/deviceSettings/checks.test.ts).
 */
import type {
  ClientEngineInfo,
  DeviceSettingsInfo,
  GeneralSettingsInfo,
  SettingsInfoType,
} from '../../src/protocol/deviceSettings';

/** The four sections, in the order the settings tab shows them (§7 get-device-settings-info infoType). */
export const INFO_TYPES = [
  'general-settings-info',
  'alert-metrics-settings-info',
  'client-engine-info',
  'system-check-settings-info',
] as const satisfies readonly SettingsInfoType[];

export const LOG_LEVEL_OPTIONS = ['debug', 'info', 'warn', 'error'] as const;

/** A field of a form: a switch, a whole number in [min, max] (typed as text) or one of `options`. */
export type FieldSpec =
  | { name: string; kind: 'boolean' }
  | { name: string; kind: 'int'; min: number; max: number; unit: 's' | '%' | '°C' | 'days' | '' }
  | { name: string; kind: 'enum'; options: readonly string[] };

const int = (name: string, min: number, max: number, unit: 's' | '%' | '°C' | 'days' | '') =>
  ({ name, kind: 'int', min, max, unit }) as const;
const bool = (name: string) => ({ name, kind: 'boolean' }) as const;
const level = (name: string) => ({ name, kind: 'enum', options: LOG_LEVEL_OPTIONS }) as const;

/** Each section's editable fields (the Jetson fields only on Jetson: see fieldsOf). */
export const SETTINGS_FIELDS: Record<SettingsInfoType, readonly FieldSpec[]> = {
  'general-settings-info': [
    bool('startAtBoot'),
    bool('connectionAlertEnabled'),
    int('connectionAlertDelayS', 10, 3600, 's'),
  ],
  'alert-metrics-settings-info': [
    bool('enabled'),
    int('intervalS', 5, 3600, 's'),
    int('cpuPercent', 1, 100, '%'),
    int('gpuPercent', 1, 100, '%'),
    int('memoryPercent', 1, 100, '%'),
    int('temperatureC', 30, 110, '°C'),
  ],
  'client-engine-info': [
    level('clientLogLevel'),
    int('clientLogRetentionDays', 1, 90, 'days'),
    level('streamLogLevel'),
    int('streamLogRetentionDays', 1, 90, 'days'),
    int('jetsonPowerMode', 0, 15, ''),
    bool('jetsonClocks'),
  ],
  'system-check-settings-info': [bool('dns'), bool('time'), bool('ip')],
};

/** A form's values by field name: switches are booleans, numbers and choices are the text typed. */
export type FormValues = Record<string, string | boolean>;

/** Why a field is refused before sending: i18n key `deviceSettings.errors.<key>` with min / max. */
export interface FieldError {
  key: 'required' | 'integer' | 'range' | 'choice' | 'url';
  min?: number;
  max?: number;
}
export type FormErrors = Record<string, FieldError>;

/** The fields a section shows for its values (no Jetson fields when the device has no Jetson service). */
export function fieldsOf(infoType: SettingsInfoType, values: FormValues | null): FieldSpec[] {
  return SETTINGS_FIELDS[infoType].filter(
    (f) => !f.name.startsWith('jetson') || (values !== null && f.name in values),
  );
}

/** A section's form values as the device reports them. */
export function formOf(section: DeviceSettingsInfo): FormValues {
  switch (section.infoType) {
    case 'general-settings-info': {
      const i: GeneralSettingsInfo = section.info;
      return {
        startAtBoot: i.startAtBoot,
        connectionAlertEnabled: i.connectionAlert.enabled,
        connectionAlertDelayS: String(i.connectionAlert.delayS),
      };
    }
    case 'alert-metrics-settings-info': {
      const i = section.info;
      return {
        enabled: i.enabled,
        intervalS: String(i.intervalS),
        cpuPercent: String(i.cpuPercent),
        gpuPercent: String(i.gpuPercent),
        memoryPercent: String(i.memoryPercent),
        temperatureC: String(i.temperatureC),
      };
    }
    case 'client-engine-info': {
      const i: ClientEngineInfo = section.info;
      return {
        clientLogLevel: i.clientLog.level,
        clientLogRetentionDays: String(i.clientLog.retentionDays),
        streamLogLevel: i.streamEngineLog.level,
        streamLogRetentionDays: String(i.streamEngineLog.retentionDays),
        ...(i.jetsonService
          ? { jetsonPowerMode: String(i.jetsonService.powerMode), jetsonClocks: i.jetsonService.jetsonClocks }
          : {}),
      };
    }
    case 'system-check-settings-info':
      return { dns: section.info.dns, time: section.info.time, ip: section.info.ip };
  }
}

/** The check of one field's value; null when it is fine. */
export function checkField(field: FieldSpec, value: string | boolean | undefined): FieldError | null {
  if (field.kind === 'boolean') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  if (field.kind === 'enum') return field.options.includes(text) ? null : { key: 'choice' };
  if (text === '') return { key: 'required' };
  if (!/^-?\d+$/.test(text)) return { key: 'integer' };
  const n = Number(text);
  return n < field.min || n > field.max ? { key: 'range', min: field.min, max: field.max } : null;
}

/** Every refused field of a form (empty: the form may be sent). */
export function checkForm(infoType: SettingsInfoType, values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const field of fieldsOf(infoType, values)) {
    const error = checkField(field, values[field.name]);
    if (error) errors[field.name] = error;
  }
  return errors;
}

/** Whether `values` differ from `original` in any field. */
export function isDirty(original: FormValues | null, values: FormValues | null): boolean {
  if (!original || !values) return false;
  return Object.keys(values).some((k) => values[k] !== original[k]);
}

/** One change command a save sends (§7 "Settings changes"). */
export interface SettingsChange {
  process:
    | 'change-startup-info'
    | 'change-connection-alert-info'
    | 'change-check-device-metrics-info'
    | 'change-client-log-info'
    | 'change-stream-engine-log-info'
    | 'change-jetson-service-info'
    | 'change-system-check-info';
  payload: Record<string, unknown>;
}

const num = (v: string | boolean | undefined) => Number(String(v).trim());
const changed = (o: FormValues, v: FormValues, names: readonly string[]) => names.some((n) => o[n] !== v[n]);

/** The change commands that save a checked form: one per group of fields that changed, in field order. */
export function changesOf(
  infoType: SettingsInfoType,
  original: FormValues,
  values: FormValues,
): SettingsChange[] {
  const out: SettingsChange[] = [];
  const add = (
    names: readonly string[],
    process: SettingsChange['process'],
    payload: Record<string, unknown>,
  ) => {
    if (changed(original, values, names)) out.push({ process, payload });
  };
  switch (infoType) {
    case 'general-settings-info':
      add(['startAtBoot'], 'change-startup-info', { enabled: values.startAtBoot === true });
      add(['connectionAlertEnabled', 'connectionAlertDelayS'], 'change-connection-alert-info', {
        enabled: values.connectionAlertEnabled === true,
        delayS: num(values.connectionAlertDelayS),
      });
      break;
    case 'alert-metrics-settings-info':
      add(
        SETTINGS_FIELDS[infoType].map((f) => f.name),
        'change-check-device-metrics-info',
        {
          enabled: values.enabled === true,
          intervalS: num(values.intervalS),
          cpuPercent: num(values.cpuPercent),
          gpuPercent: num(values.gpuPercent),
          memoryPercent: num(values.memoryPercent),
          temperatureC: num(values.temperatureC),
        },
      );
      break;
    case 'client-engine-info':
      add(['clientLogLevel', 'clientLogRetentionDays'], 'change-client-log-info', {
        level: values.clientLogLevel,
        retentionDays: num(values.clientLogRetentionDays),
      });
      add(['streamLogLevel', 'streamLogRetentionDays'], 'change-stream-engine-log-info', {
        level: values.streamLogLevel,
        retentionDays: num(values.streamLogRetentionDays),
      });
      if ('jetsonPowerMode' in values) {
        add(['jetsonPowerMode', 'jetsonClocks'], 'change-jetson-service-info', {
          powerMode: num(values.jetsonPowerMode),
          jetsonClocks: values.jetsonClocks === true,
        });
      }
      break;
    case 'system-check-settings-info':
      add(['dns', 'time', 'ip'], 'change-system-check-info', {
        dns: values.dns === true,
        time: values.time === true,
        ip: values.ip === true,
      });
      break;
  }
  return out;
}

/** Checks a CIE address before connect-cie: http(s), a host, at most 2048 characters, no spaces. */
export function checkCieUrl(url: string): FieldError | null {
  const text = url.trim();
  if (text === '') return { key: 'required' };
  return text.length <= 2048 && /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/.test(text) ? null : { key: 'url' };
}

/** A refusal as the form shows it: the device's words (§8 `{ data: null, error }`) or the link's. */
export interface DeviceError {
  code: string;
  message: string;
}

/** The `{ code, message }` of a thrown value (DeviceCommandError and the like), else 'failed' + its text. */
export function deviceErrorOf(err: unknown): DeviceError {
  if (err && typeof err === 'object' && 'message' in err) {
    const code = 'code' in err && typeof err.code === 'string' ? err.code : 'failed';
    return { code, message: String(err.message) };
  }
  return { code: 'failed', message: String(err) };
}
