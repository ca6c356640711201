/**
 * Handlers of the deviceSettings feature's device commands (src/protocol/deviceSettings.ts; spec §7 "Client
 * and settings" and "Settings changes"). Each answers §8's `{ data, error }`: the part's answer with error
 * null, or data null plus `{ code, message }` when the device refuses (CommandError) or fails (code 'failed').
 * Payloads were validated by the dispatcher before (invalid ones never reach here).
 */
import { SETTINGS_ERROR_CODES, type SettingsReply } from '../../protocol/deviceSettings';
import { errorMessage } from '../log';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type SettingsProcess =
  | 'get-home-path'
  | 'get-settings-info'
  | 'get-device-settings-info'
  | 'force-refresh-device-settings'
  | 'restart-client-engine'
  | 'restart-frp-client'
  | 'connect-cie'
  | 'change-startup-info'
  | 'change-connection-alert-info'
  | 'change-check-device-metrics-info'
  | 'change-client-log-info'
  | 'change-stream-engine-log-info'
  | 'change-jetson-service-info'
  | 'change-system-check-info';

/** Runs `fn`; its answer as `{ data, error: null }`, a failure as `{ data: null, error }` (§8). */
async function settled<T>(what: string, fn: () => Promise<T>): Promise<SettingsReply<T>> {
  try {
    return { data: await fn(), error: null };
  } catch (err) {
    if (err instanceof CommandError) return { data: null, error: { code: err.code, message: err.message } };
    // Only the reply says it; the agent goes on.
    const message = `The device could not ${what}: ${errorMessage(err)}`;
    return { data: null, error: { code: SETTINGS_ERROR_CODES.failed, message } };
  }
}

export const deviceSettingsHandlers = {
  'get-home-path': (_p, ctx) =>
    settled('read its home path', async () => ({ homePath: ctx.settings.homePath() })),
  'get-settings-info': (_p, ctx) => settled('read its settings', () => ctx.settings.all()),
  'get-device-settings-info': (p, ctx) =>
    settled('read its settings', () => ctx.settings.section(p.infoType)),
  'force-refresh-device-settings': (_p, ctx) => settled('refresh its settings', () => ctx.settings.refresh()),
  'restart-client-engine': (_p, ctx) =>
    settled('restart the client engine', () => ctx.settings.restartClientEngine()),
  'restart-frp-client': (_p, ctx) => settled('restart the FRP client', () => ctx.settings.restartFrpClient()),
  'connect-cie': (p, ctx) => settled('connect to the CIE', () => ctx.settings.connectCie(p.url)),
  'change-startup-info': (p, ctx) =>
    settled('change starting at boot', () => ctx.settings.changeStartup(p.enabled)),
  'change-connection-alert-info': (p, ctx) =>
    settled('change the connection alert', () => ctx.settings.changeConnectionAlert(p)),
  'change-check-device-metrics-info': (p, ctx) =>
    settled('change the metric alerts', () => ctx.settings.changeMetricsAlert(p)),
  'change-client-log-info': (p, ctx) =>
    settled('change the client log', () => ctx.settings.changeClientLog(p)),
  'change-stream-engine-log-info': (p, ctx) =>
    settled('change the stream engine log', () => ctx.settings.changeStreamEngineLog(p)),
  'change-jetson-service-info': (p, ctx) =>
    settled('change the Jetson service', () => ctx.settings.changeJetsonService(p)),
  'change-system-check-info': (p, ctx) =>
    settled('change the system checks', () => ctx.settings.changeSystemChecks(p)),
} satisfies Pick<Handlers, SettingsProcess>;
