/**
 * The engines feature (spec §2 /control-panel/engines; §3 inferenceEngines, deepStream; §5 GPU driver check;
 * §7 check-inference-engine-exist, get-gpu-driver-version, engine images; §9 device score; issue 10 "Engines"):
 * the engines of every connected device, their images, the GPU driver and the device the §9 score chooses.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const engines: ConsoleFeature = {
  name: 'engines',
  routes: { engines: lazyScreen(() => import('./screens/EnginesScreen')) },
  loadActors: () => import('./actors').then((m) => m.enginesActors),
};
