/**
 * The signalling feature (spec §4 "Signal connection status"; server routes `signalling`): the signal
 * actor's side effects over the peer link, and its notices; the connectivity notice in the header (issue 15).
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ConsoleFeature } from '../feature';
import { signallingActors } from './actors';
import { ConnectionNotice } from './screens/ConnectionNotice';

export const signalling: ConsoleFeature = {
  name: 'signalling',
  actors: signallingActors,
  notices: [{ systemId: SYSTEM_IDS.signal }],
  headerSlots: [ConnectionNotice],
};
