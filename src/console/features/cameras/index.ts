/**
 * The cameras feature (spec §2 Camera control page, stream modal, stream detail; §4 Stream slots; server
 * routes `cameras`, `layout`, `usage`; agent commands `cameras`, `streams`, `snapshot`): the camera screens,
 * the camera grid and stream actors' side effects, their notices, the stream modal slot.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { camerasActors } from './actors';
import { StreamModalSlot } from './screens/StreamModalSlot';

const StreamDetailScreen = lazyScreen(() => import('./screens/StreamDetailScreen'));

export const cameras: ConsoleFeature = {
  name: 'cameras',
  routes: {
    cameras: lazyScreen(() => import('./screens/CamerasScreen')),
    streamDetail: StreamDetailScreen,
    rawStreamDetail: StreamDetailScreen,
  },
  actors: camerasActors,
  notices: [{ systemId: SYSTEM_IDS.streams }],
  signedInSlots: [StreamModalSlot],
};
