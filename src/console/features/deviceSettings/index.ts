/**
 * The deviceSettings feature (§7 "Client and settings" and "Settings changes": get-settings-info, get-device-settings-info (four infoTypes), change-*, force-refresh-device-settings, restart-client-engine, restart-frp-client, connect-cie, get-home-path).
 */
import type { ConsoleFeature } from '../feature';

export const deviceSettings: ConsoleFeature = { name: 'deviceSettings' };
