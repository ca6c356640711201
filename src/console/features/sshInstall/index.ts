/**
 * The SSH install feature (issue 12; spec §3/§4 "SSH install", §7 connect-ssh / ssh-command, §8 SSH texts, §2
 * unload warning): /control-panel/devices/ssh-install (connect, then the three step groups with live output),
 * an "Add device over SSH" entry on the device list and the unload warning (header slot), and the installs
 * registry (machines/sshInstall/), loaded in its own chunk after sign-in, whose notices and dialogs are shown.
 */
import type { SshInstallsContext } from '../../../../machines/sshInstall/sshInstalls.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const sshInstall: ConsoleFeature = {
  name: 'sshInstall',
  routes: { sshInstall: lazyScreen(() => import('./screens/SshInstallScreen')) },
  loadActors: () => import('./actors').then((m) => m.sshInstallActors),
  headerSlots: [lazyScreen(() => import('./screens/SshInstallSlot'))],
  notices: [
    {
      systemId: SYSTEM_IDS.sshInstall,
      children: (s) => Object.values((s as unknown as { context: SshInstallsContext }).context.installs),
    },
  ],
};
