/**
 * The signalling feature (spec §4 "Signal connection status"; server routes `signalling`): the signal
 * actor's side effects over the peer link, and its notices.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { ConsoleFeature } from '../feature';
import { signallingActors } from './actors';

export const signalling: ConsoleFeature = {
  name: 'signalling',
  actors: signallingActors,
  notices: [{ systemId: SYSTEM_IDS.signal }],
};
