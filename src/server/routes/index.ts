/**
 * The route list: every feature's handlers, merged. Typed by the REST route table (src/protocol/routes.ts),
 * so a route without a handler here fails to compile. A new feature adds one line.
 */
import type { RestRoutes } from '../../protocol/routes';
import type { ServerContext } from '../context';
import { accountHandlers } from './accounts';
import { adminHandlers } from './admin';
import { agentHandlers } from './agent';
import { cameraHandlers } from './cameras';
import { containerHandlers } from './containers';
import { deviceHandlers } from './devices';
import { layoutHandlers } from './layout';
import { metaHandlers } from './meta';
import { ipCameraHandlers } from './ipCameras';
import { groupHandlers } from './groups';
import { mapHandlers } from './map';
import { modelHandlers } from './models';
import { mailHandlers } from '../mail/routes';
import { softwareHandlers } from './software';
import { repositoryHandlers } from './repositories';
import { applicationHandlers } from './applications';
import { inferenceHandlers } from './inference';
import { schedulerHandlers } from './schedulers';
import { alarmHandlers } from './alarms';
import { eventHandlers } from './events';
import { downloadHandlers } from './download';
import { sshInstallHandlers } from './sshInstall';
import type { RouteHandlers } from './register';
import { searchHandlers } from './search';
import { signallingHandlers } from './signalling';
import type { ZodApp } from './types';
import { usageHandlers } from './usage';
import { billingHandlers } from './billing';
import { publicHandlers } from './public';
import { profileHandlers } from './profile';
import { alarmChannelHandlers } from './alarmChannels';
import { notificationHandlers } from './notifications';
import { analyticsHandlers } from './analytics';
import { faceHandlers } from './faces';
import { serviceHandlers } from './service';

/** Every route's handler. */
export function routeHandlers(ctx: ServerContext, app: ZodApp): RouteHandlers<RestRoutes> {
  return {
    ...accountHandlers(ctx, app),
    ...adminHandlers(ctx, app),
    ...mailHandlers(ctx, app),
    ...deviceHandlers(ctx, app),
    ...cameraHandlers(ctx, app),
    ...layoutHandlers(ctx, app),
    ...usageHandlers(ctx, app),
    ...signallingHandlers(ctx, app),
    ...agentHandlers(ctx, app),
    ...metaHandlers(ctx, app),
    ...containerHandlers(ctx, app),
    ...searchHandlers(ctx, app),
    ...ipCameraHandlers(ctx, app),
    ...groupHandlers(ctx, app),
    ...mapHandlers(ctx, app),
    ...softwareHandlers(ctx, app),
    ...modelHandlers(ctx, app),
    ...repositoryHandlers(ctx, app),
    ...applicationHandlers(ctx, app),
    ...inferenceHandlers(ctx, app),
    ...schedulerHandlers(ctx, app),
    ...alarmHandlers(ctx, app),
    ...eventHandlers(ctx, app),
    ...downloadHandlers(ctx, app),
    ...sshInstallHandlers(ctx, app),
    ...billingHandlers(ctx, app),
    ...publicHandlers(ctx, app),
    ...profileHandlers(ctx, app),
    ...alarmChannelHandlers(ctx, app),
    ...notificationHandlers(ctx, app),
    ...analyticsHandlers(ctx, app),
    ...faceHandlers(ctx, app),
    ...serviceHandlers(ctx, app),
  };
}
