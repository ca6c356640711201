/**
 * The device's stored settings: one JSON file, `<stateDir>/settings.json`, written atomically (a temporary
 * file in the same directory, then rename), so a crash mid-write leaves the old file or the new one, never
 * half of one. Reading is forgiving: a missing file gives the defaults; a file that is not JSON gives the
 * defaults and a warning (the bad file is kept aside as `settings.json.corrupt-<ms>`); a field that does not
 * fit its schema falls back to its default alone (the other fields are kept), with a warning.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  CieState,
  ConnectionAlertInput,
  JetsonServiceInput,
  LogSettingsInput,
  MetricsAlertInput,
  SystemChecksInput,
} from '../../protocol/deviceSettings';
import { errorMessage, type Logger } from '../log';

/** What the device keeps across restarts. startAtBoot is the stored value (used where systemd cannot say). */
export interface StoredSettings {
  startAtBoot: boolean;
  connectionAlert: ConnectionAlertInput;
  metricsAlert: MetricsAlertInput;
  clientLog: LogSettingsInput;
  streamEngineLog: LogSettingsInput;
  jetsonService: JetsonServiceInput;
  systemChecks: SystemChecksInput;
  cie: CieState;
}

/** A new device's settings. */
export const DEFAULT_SETTINGS: StoredSettings = {
  startAtBoot: true,
  connectionAlert: { enabled: true, delayS: 60 },
  metricsAlert: {
    enabled: true,
    intervalS: 60,
    cpuPercent: 90,
    gpuPercent: 90,
    memoryPercent: 90,
    temperatureC: 80,
  },
  clientLog: { level: 'info', retentionDays: 7 },
  streamEngineLog: { level: 'warn', retentionDays: 7 },
  jetsonService: { powerMode: 0, jetsonClocks: false },
  systemChecks: { dns: true, time: true, ip: true },
  cie: { url: null, connected: false, connectedAt: null },
};

const FIELDS: { [K in keyof StoredSettings]: z.ZodType<StoredSettings[K]> } = {
  startAtBoot: z.boolean(),
  connectionAlert: ConnectionAlertInput,
  metricsAlert: MetricsAlertInput,
  clientLog: LogSettingsInput,
  streamEngineLog: LogSettingsInput,
  jetsonService: JetsonServiceInput,
  systemChecks: SystemChecksInput,
  cie: CieState,
};

export const SETTINGS_FILE = 'settings.json';

/** Reads and writes the settings file of one state directory. Writes are serialised. */
export class SettingsStore {
  private readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    stateDir: string,
    private readonly log: Logger,
  ) {
    this.file = path.join(stateDir, SETTINGS_FILE);
  }

  /** The stored settings, each field valid (defaults where the file has none or a bad one). Never throws. */
  async read(): Promise<StoredSettings> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.log.warn('settings: the settings file could not be read; using the defaults', {
          error: errorMessage(err),
        });
      }
      return structuredClone(DEFAULT_SETTINGS);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      this.log.warn('settings: the settings file is not JSON; using the defaults', {
        error: errorMessage(err),
        keptAs: aside,
      });
      await rename(this.file, aside).catch(() => undefined);
      return structuredClone(DEFAULT_SETTINGS);
    }
    return this.fromRaw(raw);
  }

  /** Each field of `raw` that fits its schema, the default for the others (with a warning). */
  private fromRaw(raw: unknown): StoredSettings {
    const source = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
    if (source !== raw) this.log.warn('settings: the settings file is not an object; using the defaults');
    const out = structuredClone(DEFAULT_SETTINGS) as unknown as Record<string, unknown>;
    const bad: string[] = [];
    for (const key of Object.keys(FIELDS) as (keyof StoredSettings)[]) {
      if (!(key in source)) continue;
      const parsed = FIELDS[key].safeParse((source as Record<string, unknown>)[key]);
      if (parsed.success) out[key] = parsed.data;
      else bad.push(key);
    }
    if (bad.length > 0) this.log.warn('settings: invalid fields replaced by their defaults', { fields: bad });
    return out as unknown as StoredSettings;
  }

  /** Writes `settings` atomically (temp file + rename); writes run one after another. */
  write(settings: StoredSettings): Promise<void> {
    const next = this.queue.then(() => this.writeNow(settings));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async writeNow(settings: StoredSettings): Promise<void> {
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
      await rename(tmp, this.file);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
  }
}
