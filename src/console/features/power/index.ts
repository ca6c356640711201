/**
 * The power feature (§7 "Client and settings": restartItself, restartDevice, shutDownDevice, force-shut-down;
 * "Sudo": check-sudo-saved, check-sudo, remove-saved-sudo; §5 sudo dialog; §8 power texts): the device page's
 * Power tab and the power registry (machines/power/), loaded in its own chunk after sign-in, whose actions'
 * notices (§8 "Success", "Shutdown Successful", failures) are shown.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import './tabLabel';

interface PowerSnapshotLike {
  context: { actions: Record<string, never> };
}

export const power: ConsoleFeature = {
  name: 'power',
  loadActors: () => import('./actors').then((m) => m.powerActors),
  deviceTabs: [
    {
      id: 'power',
      label: 'power.tab',
      order: 60,
      panel: lazyScreen(() => import('./screens/PowerTab')),
    },
  ],
  notices: [
    {
      systemId: SYSTEM_IDS.power,
      children: (s) => Object.values((s as unknown as PowerSnapshotLike).context.actions),
    },
  ],
};
