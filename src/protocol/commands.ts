/**
 * The device-command registry (spec §7 "Device commands over the peer link", field `process`): every
 * feature's commands, merged. One typed registry shared by the console (caller) and the agent (handler): for
 * every process, the zod schema of its request payload and of its reply data. Response shapes are not given
 * by the spec ("not shown"); the shapes are ours, documented field by field with units in each feature's
 * module. A new feature adds one line here; the agent's handler table then fails to compile until it
 * answers the new processes, and the fuzz harness (tests/fuzz/) covers them.
 */
import type { z } from 'zod';
import { cameraCommands } from './cameras';
import { containerCommands } from './containers';
import { deviceSettingsCommands } from './deviceSettings';
import { engineCommands } from './engines';
import { healthCommands } from './health';
import { logCommands } from './logs';
import { modelCommands } from './models';
import { inferenceCommands } from './inference';
import { metricsCommands } from './metrics';
import { ipCameraCommands } from './ipCameras';
import { recordCommands } from './records';
import { remoteDesktopCommands } from './remoteDesktop';
import { softwareCommands } from './software';
import { powerCommands } from './power';
import { schedulerCommands } from './schedulers';
import { alarmCommands } from './alarms';
import { storageCommands } from './storage';
import { demoAppCommands } from './demoApps';
import { streamCommands } from './streams';

export const deviceCommands = {
  ...healthCommands,
  ...cameraCommands,
  ...streamCommands,
  ...containerCommands,
  ...logCommands,
  ...powerCommands,
  ...deviceSettingsCommands,
  ...storageCommands,
  ...metricsCommands,
  ...ipCameraCommands,
  ...recordCommands,
  ...softwareCommands,
  ...modelCommands,
  ...engineCommands,
  ...inferenceCommands,
  ...schedulerCommands,
  ...alarmCommands,
  ...remoteDesktopCommands,
  ...demoAppCommands,
};

export type DeviceProcess = keyof typeof deviceCommands;
export const DEVICE_PROCESSES = Object.keys(deviceCommands) as DeviceProcess[];
export type CommandRequest<P extends DeviceProcess> = z.input<(typeof deviceCommands)[P]['request']>;
export type CommandReply<P extends DeviceProcess> = z.infer<(typeof deviceCommands)[P]['reply']>;

export const isDeviceProcess = (p: string): p is DeviceProcess =>
  Object.prototype.hasOwnProperty.call(deviceCommands, p);

/** Types of command payloads that callers name often. */
export { DeviceCamera, ResolutionOption, resolutionLabel } from './cameras';
export { GpuUsage } from './health';
