/**
 * Pure snapshot → view functions of the profile feature (issue 13 Profile): the form, the header's name and
 * picture, the API keys, the reports, the stream bars (§7 usage/all_stream_limits) and the usage charts'
 * series. No React here: tests/unit/profile/views.test.ts checks them.
 */
import type { SnapshotFrom } from 'xstate';
import type { apiKeysMachine } from '../../../../machines/profile/apiKeys.machine';
import type { profileFormMachine } from '../../../../machines/profile/profileForm.machine';
import type { FieldErrors, ProfileUser } from '../../../../machines/profile/profileForm';
import type { reportMachine } from '../../../../machines/profile/profileReport.machine';
import type { ApiKey, DeviceTokenInfo, NetworkUsage, StorageUsage } from '../../../protocol/profile';

export interface ProfileView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'saving' | 'removingAvatar';
  user: ProfileUser | null;
  fieldErrors: FieldErrors;
  error: string | null;
  saved: boolean;
  busy: boolean;
  formVersion: number;
}

export function profileToView(s: SnapshotFrom<typeof profileFormMachine>): ProfileView {
  return {
    state: s.value as ProfileView['state'],
    user: s.context.user,
    fieldErrors: s.context.fieldErrors,
    error: s.context.error,
    saved: s.context.saved,
    busy: s.hasTag('busy'),
    formVersion: s.context.formVersion,
  };
}

/** The header's badge: the name, the picture URL and initials for when there is none. */
export interface HeaderView {
  name: string;
  image: string | null;
  initials: string;
}
export function headerToView(user: ProfileUser | null): HeaderView | null {
  if (!user) return null;
  const name = user.username.trim() || user.email;
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => [...w][0]?.toUpperCase() ?? '')
      .join('') || '?';
  return { name, image: user.image, initials };
}

export interface ApiKeysView {
  state: 'idle' | 'loading' | 'failed' | 'ready' | 'creating' | 'created' | 'confirmingRevoke' | 'revoking';
  keys: ApiKey[];
  created: { name: string; secret: string } | null;
  /** The key whose revocation is asked (confirm dialog). */
  confirming: ApiKey | null;
  error: string | null;
  invalid: boolean;
  busy: boolean;
}
export function apiKeysToView(s: SnapshotFrom<typeof apiKeysMachine>): ApiKeysView {
  const c = s.context;
  return {
    state: s.value as ApiKeysView['state'],
    keys: c.keys,
    created: c.created ? { name: c.created.key.name, secret: c.created.secret } : null,
    confirming: s.matches('confirmingRevoke') ? (c.keys.find((k) => k.id === c.revoking) ?? null) : null,
    error: c.error,
    invalid: c.invalid,
    busy: s.hasTag('busy'),
  };
}

export interface ReportView<T> {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  data: T | null;
  error: string | null;
  busy: boolean;
}
export function reportToView<T>(s: SnapshotFrom<typeof reportMachine>): ReportView<T> {
  return {
    state: s.value as ReportView<T>['state'],
    data: (s.context.data as T | null) ?? null,
    error: s.context.error,
    busy: s.hasTag('busy'),
  };
}

/** One device's stream bar: the limit (§7 max_streams), streams in use when the device is connected. */
export interface StreamBar {
  deviceId: string;
  label: string;
  limit: number;
  /** Streams the device sends now (check-health `streams` + `paused_streams`); null when not connected. */
  used: number | null;
  /** used / limit in percent (0–100), 0 when unknown. */
  percent: number;
}
export function streamBarsOf(
  limits: readonly { deviceId: string; max_streams: number }[],
  labels: ReadonlyMap<string, string>,
  inUse: ReadonlyMap<string, number>,
): StreamBar[] {
  return limits.map((l) => {
    const used = inUse.get(l.deviceId) ?? null;
    const percent =
      used === null || l.max_streams <= 0 ? 0 : Math.min(100, Math.round((used / l.max_streams) * 100));
    return {
      deviceId: l.deviceId,
      label: labels.get(l.deviceId) ?? l.deviceId,
      limit: l.max_streams,
      used,
      percent,
    };
  });
}

/** Seconds since the epoch of a UTC day `YYYY-MM-DD` (uPlot's time axis). */
export const daySeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** The storage chart's series: days (s) and bytes stored at each day's end. */
export function storageSeriesOf(u: StorageUsage): [number[], number[]] {
  return [u.history.map((h) => daySeconds(h.day)), u.history.map((h) => h.bytes)];
}

export interface NetworkDay {
  day: string;
  fromDevice: number;
  toDevice: number;
}
/** Every day of the report's range with the bytes of all devices summed (days without traffic: 0). */
export function networkDaysOf(n: NetworkUsage): NetworkDay[] {
  const byDay = new Map<string, NetworkDay>();
  const start = daySeconds(n.from);
  const end = daySeconds(n.to);
  for (let t = start; t <= end; t += 86_400) {
    const day = new Date(t * 1000).toISOString().slice(0, 10);
    byDay.set(day, { day, fromDevice: 0, toDevice: 0 });
  }
  for (const r of n.rows) {
    const d = byDay.get(r.day) ?? { day: r.day, fromDevice: 0, toDevice: 0 };
    d.fromDevice += r.bytes_from_device;
    d.toDevice += r.bytes_to_device;
    byDay.set(r.day, d);
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
}
/** The network chart's series: days (s), bytes from devices, bytes to devices. */
export function networkSeriesOf(days: readonly NetworkDay[]): [number[], number[], number[]] {
  return [days.map((d) => daySeconds(d.day)), days.map((d) => d.fromDevice), days.map((d) => d.toDevice)];
}
/** Table rows: per day and device with traffic, newest first, with the device's label. */
export function networkRowsOf(n: NetworkUsage) {
  const labels = new Map(n.devices.map((d) => [d.device_id, d.label]));
  return [...n.rows]
    .sort((a, b) => b.day.localeCompare(a.day) || a.device_id.localeCompare(b.device_id))
    .map((r) => ({ ...r, label: labels.get(r.device_id) ?? r.device_id }));
}

/** Device tokens sorted as listed (label), with whether the token is past its §9 60-day expiry at `now`. */
export function deviceTokenRowsOf(tokens: readonly DeviceTokenInfo[], now = Date.now()) {
  return tokens.map((t) => ({ ...t, expired: t.expires_at !== null && Date.parse(t.expires_at) <= now }));
}
