/**
 * The power feature (§7 "Client and settings": restartItself, restartDevice, shutDownDevice, force-shut-down).
 */
import type { ConsoleFeature } from '../feature';

export const power: ConsoleFeature = { name: 'power' };
