/**
 * What a command handler gets besides its payload: who asks (the browser peer id and its link) and the
 * agent's parts (backend, streams, containers).
 */
import type { Backend } from '../backends/types';
import type { ContainerEngine } from '../containers/engine';
import type { ProcessTracker } from '../containers/processes';
import type { DeviceSettings } from '../deviceSettings';
import type { DeviceLogs } from '../logs';
import type { MetricsHistory } from '../metrics';
import type { DeviceModels } from '../models';
import type { DeviceInference } from '../inference';
import type { DeviceSchedulers } from '../schedulers';
import type { DeviceAlarms } from '../alarms';
import type { IpCameraReach } from '../ipCameras';
import type { DeviceRecords } from '../records';
import type { DeviceRemoteDesktop } from '../remoteDesktop';
import type { DeviceSoftware } from '../software';
import type { DevicePower } from '../power';
import type { DeviceStorage } from '../storage';
import type { CameraCatalog } from '../streams/catalog';
import type { StreamManager } from '../streams/manager';

export interface CommandContext {
  /** This device's id (its peer id). */
  deviceId: string;
  /** The asking browser's peer id (grant-verified). */
  browserId: string;
  /** Id of the link (data connection) the request came on. */
  linkId: string;
  backend: Backend;
  /** Every camera of the device: the backend's, then the server's IP cameras (camera-list). */
  cameras: CameraCatalog;
  streams: StreamManager;
  /** Agent start time, ms since the epoch. */
  startedAt: number;
  /** Agent version (package.json). */
  version: string;
  /** The device's container engine (host Docker or sim), spec §3 Container. */
  containers: ContainerEngine;
  /** Docker processes of the device (§3 Docker process): container actions and downloads. */
  dockerProcesses: ProcessTracker;
  /** Pushes an event message (link.ts EventMessage) to every ready link of the device. */
  broadcast(name: string, data: unknown): void;
  /** The device's logs (src/agent/logs/). */
  logs: DeviceLogs;
  /** Sudo and power (src/agent/power/). */
  power: DevicePower;
  /** The device's settings (src/agent/deviceSettings/). */
  settings: DeviceSettings;
  /** Storage use and product data (src/agent/storage/). */
  storage: DeviceStorage;
  /** The metrics history the device keeps (src/agent/metrics/). */
  metrics: MetricsHistory;
  /** src/agent/ipCameras/ (ipCameras). */
  ipCameras: IpCameraReach;
  /** src/agent/records/ (records). */
  records: DeviceRecords;
  /** src/agent/software/ (software). */
  software: DeviceSoftware;
  /** src/agent/models/ (models: deployed model downloads and installed models). */
  models: DeviceModels;
  /** src/agent/inference/ (inference: jobs, the start negotiation, detections, the stream-engine map). */
  inference: DeviceInference;
  /** src/agent/schedulers/ (schedulers: calendars kept on the device, jobs started and stopped at their edges). */
  schedulers: DeviceSchedulers;
  /** src/agent/alarms/ (alarms: the alarm list kept on the device, detections matched into events). */
  alarms: DeviceAlarms;
  /** src/agent/remoteDesktop/ (remoteDesktop: the desktop's input and windows; its picture is a stream). */
  remoteDesktop: DeviceRemoteDesktop;
}
