/**
 * The containers feature (spec §1 "create, start, stop and remove containers (including Jupyter)"; §2
 * /control-panel/containers, /containers, /containers/{alias}, /containers/details/{envId}, the public
 * environment-detail, /admin-panel/dockers; §3 Container, Docker process; §4 Container action; §8 Docker
 * texts; server routes and device commands of src/protocol/containers.ts): its screens, the actors of
 * machines/containers/ with their side effects, their notices, and the download-offer slot.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { ActionOfferSlot } from './screens/ActionOfferSlot';
import { actionRefsOf } from './selectors';

export const containers: ConsoleFeature = {
  name: 'containers',
  routes: {
    containers: lazyScreen(() => import('./screens/ContainersScreen')),
    environments: lazyScreen(() => import('./screens/EnvironmentsScreen')),
    environment: lazyScreen(() => import('./screens/EnvironmentScreen')),
    containerDetails: lazyScreen(() => import('./screens/ContainerDetailsScreen')),
    environmentDetail: lazyScreen(() => import('./screens/PublicEnvironmentScreen')),
    adminDockers: lazyScreen(() => import('./screens/AdminDockersScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.containersActors),
  notices: [
    // "Ongoing Process" (the registry) and each action's failure dialog (§8).
    { systemId: SYSTEM_IDS.containerActions, children: (s) => actionRefsOf(s as never) },
    { systemId: SYSTEM_IDS.containers },
    { systemId: SYSTEM_IDS.environments },
  ],
  signedInSlots: [ActionOfferSlot],
};
