/**
 * Handlers of the deviceSettings feature's device commands (src/protocol/deviceSettings.ts; §7 "Client and settings" and "Settings changes": get-settings-info, get-device-settings-info (four infoTypes), change-*, force-refresh-device-settings, restart-client-engine, restart-frp-client, connect-cie, get-home-path).
 */
import type { Handlers } from './registry';

export const deviceSettingsHandlers = {} satisfies Pick<Handlers, never>;
