/**
 * The agent's command registry: every DeviceProcess of src/protocol/commands.ts mapped to its handler.
 * Typed as Handlers, so adding a process to the protocol without a handler here fails to compile.
 */
import { cameraHandlers } from './cameras';
import { containerHandlers } from './containers';
import { deviceSettingsHandlers } from './deviceSettings';
import { engineHandlers } from './engines';
import { healthHandlers } from './health';
import { logHandlers } from './logs';
import { metricsHandlers } from './metrics';
import { modelHandlers } from './models';
import { inferenceHandlers } from './inference';
import { ipCameraHandlers } from './ipCameras';
import { recordHandlers } from './records';
import { remoteDesktopHandlers } from './remoteDesktop';
import { softwareHandlers } from './software';
import { powerHandlers } from './power';
import { schedulerHandlers } from './schedulers';
import { alarmHandlers } from './alarms';
import { storageHandlers } from './storage';
import { demoAppHandlers } from './demoApps';
import type { Handlers } from './registry';
import { streamHandlers } from './streams';

export const handlers: Handlers = {
  ...healthHandlers,
  ...cameraHandlers,
  ...streamHandlers,
  ...containerHandlers,
  ...logHandlers,
  ...powerHandlers,
  ...deviceSettingsHandlers,
  ...storageHandlers,
  ...metricsHandlers,
  ...ipCameraHandlers,
  ...recordHandlers,
  ...softwareHandlers,
  ...modelHandlers,
  ...engineHandlers,
  ...inferenceHandlers,
  ...schedulerHandlers,
  ...alarmHandlers,
  ...remoteDesktopHandlers,
  ...demoAppHandlers,
};

export type { CommandContext } from './context';
export { CommandError } from './errors';
export type { CallScope, CommandHandler, Handlers, ParsedRequest } from './registry';
