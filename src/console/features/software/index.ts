/**
 * The software feature (issue 16 §1 "Software"; §7 get-client-version, check-version-update, check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent releases published by the server).
 */
import type { ConsoleFeature } from '../feature';

export const software: ConsoleFeature = { name: 'software' };
