/**
 * The faces feature (issue 11 "Faces: a gallery of enrolled faces (upload or pick from events); face alarms
 * for people on the blacklist"; spec §2 routes `/blacklist-faces` and `/face-alarms`): the gallery with
 * enrolling from an event or by upload, rename, blacklist switch and delete, and the face alarms' events;
 * loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const faces: ConsoleFeature = {
  name: 'faces',
  routes: {
    blacklistFaces: lazyScreen(() => import('./screens/BlacklistFacesScreen')),
    faceAlarms: lazyScreen(() => import('./screens/FaceAlarmsScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.facesActors),
  notices: [{ systemId: SYSTEM_IDS.faces }],
};
