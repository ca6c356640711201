/**
 * Handlers of the software feature's device commands (src/protocol/software.ts; issue 16 §1 "Software"; §7 get-client-version, check-version-update, check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent releases published by the server).
 */
import type { Handlers } from './registry';

export const softwareHandlers = {} satisfies Pick<Handlers, never>;
