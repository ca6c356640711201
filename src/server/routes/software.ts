/**
 * Handlers of the software feature's routes (src/protocol/software.ts; issue 16 §1 "Software"; §7 get-client-version, check-version-update, check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent releases published by the server).
 */
import type { softwareRoutes } from '../../protocol/software';
import type { HandlersOf } from './register';

export const softwareHandlers: HandlersOf<typeof softwareRoutes> = () => ({});
