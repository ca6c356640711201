/**
 * The REST route table (spec §7 server calls): every feature's routes, merged. The server registers every
 * route from it (src/server/routes/register.ts), the console's calls are typed by it, and the fuzz harness
 * (tests/fuzz/) covers each. A new feature adds one line here.
 */
import { accountRoutes } from './accounts';
import { adminRoutes } from './admin';
import { agentRoutes } from './agent';
import { cameraRoutes } from './cameras';
import { containerRoutes } from './containers';
import { deviceRoutes } from './devices';
import { layoutRoutes } from './layout';
import { metaRoutes } from './meta';
import { ipCameraRoutes } from './ipCameras';
import { groupRoutes } from './groups';
import { mapRoutes } from './map';
import { modelRoutes } from './models';
import { mailRoutes } from './mail';
import { softwareRoutes } from './software';
import { repositoryRoutes } from './repositories';
import { applicationRoutes } from './applications';
import { inferenceRoutes } from './inference';
import { schedulerRoutes } from './schedulers';
import { alarmRoutes } from './alarms';
import { eventRoutes } from './events';
import { downloadRoutes } from './download';
import { sshInstallRoutes } from './sshInstall';
import type { RestRoute } from './route';
import { searchRoutes } from './search';
import { signallingRoutes } from './signalling';
import { usageRoutes } from './usage';
import { billingRoutes } from './billing';
import { publicRoutes } from './public';
import { profileRoutes } from './profile';
import { alarmChannelRoutes } from './alarmChannels';
import { notificationRoutes } from './notifications';
import { analyticsRoutes } from './analytics';
import { faceRoutes } from './faces';
import { serviceRoutes } from './service';

export const restRoutes = {
  ...accountRoutes,
  ...adminRoutes,
  ...mailRoutes,
  ...deviceRoutes,
  ...cameraRoutes,
  ...layoutRoutes,
  ...usageRoutes,
  ...signallingRoutes,
  ...agentRoutes,
  ...metaRoutes,
  ...containerRoutes,
  ...searchRoutes,
  ...ipCameraRoutes,
  ...groupRoutes,
  ...mapRoutes,
  ...softwareRoutes,
  ...modelRoutes,
  ...repositoryRoutes,
  ...applicationRoutes,
  ...inferenceRoutes,
  ...schedulerRoutes,
  ...alarmRoutes,
  ...eventRoutes,
  ...downloadRoutes,
  ...sshInstallRoutes,
  ...billingRoutes,
  ...publicRoutes,
  ...profileRoutes,
  ...alarmChannelRoutes,
  ...notificationRoutes,
  ...analyticsRoutes,
  ...faceRoutes,
  ...serviceRoutes,
} satisfies Record<string, RestRoute>;

export type RestRoutes = typeof restRoutes;
/** A route's name in the table, `<feature>.<name>`. */
export type RouteName = keyof RestRoutes;
export const ROUTE_NAMES = Object.keys(restRoutes) as RouteName[];
