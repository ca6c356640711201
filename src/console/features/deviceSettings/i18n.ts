/**
 * Every interface text of the deviceSettings feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `deviceSettings` key of i18next's `translation` namespace when the feature's screens
 * load (addTexts). English (languages/en.ts) is the complete set; the type checks that every other language
 * gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type DeviceSettingsTexts, type DeviceSettingsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`deviceSettings.*`) in the six languages to the console's i18next, once. */
export function registerDeviceSettingsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('deviceSettings', { en, ch, es, jp, de, fr });
}

/** The i18n key of a device refusal in the contract's English words (SETTINGS_TEXTS), or null. */
export function textKeyOf(message: string): string | null {
  const entry = Object.entries(en.texts).find(([, english]) => english === message);
  return entry ? `deviceSettings.texts.${entry[0]}` : null;
}

registerDeviceSettingsTexts();
