/**
 * The admin panel (spec §2 /admin-panel children, §6 role admin; issue 13 "Admin panel"): users, clients,
 * engines with engine-backends and inferences, and the audit log (dockers belong to containers, licences to billing). Loaded
 * after the first sign-in; the route guard shows these screens to admins only, and the server refuses every
 * admin call of anyone else with 403.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const admin: ConsoleFeature = {
  name: 'admin',
  routes: {
    adminUsers: lazyScreen(() => import('./screens/UsersScreen')),
    adminClients: lazyScreen(() => import('./screens/ClientsScreen')),
    adminEngines: lazyScreen(() => import('./screens/EnginesScreen')),
    adminEngineBackends: lazyScreen(() => import('./screens/EngineBackendsScreen')),
    adminAuditLog: lazyScreen(() => import('./screens/AuditLogScreen')),
    adminInferences: lazyScreen(() => import('./screens/InferencesScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.adminActors),
  notices: [{ systemId: SYSTEM_IDS.adminUserAction }],
};
