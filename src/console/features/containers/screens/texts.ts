/**
 * The §8 texts the machines give in English (CONTAINER_TEXTS) → their i18n keys (`containers.texts.*`), so
 * views show them in the interface language; other texts (the device's words) are shown as they are.
 */
import { CONTAINER_TEXTS } from '../../../../../machines/containers/containerActionChecks';

/** The i18n key of a §8 text, or null for any other text. */
export function textKeyOf(text: string): string | null {
  const entry = Object.entries(CONTAINER_TEXTS).find(([, english]) => english === text);
  return entry ? `containers.texts.${entry[0]}` : null;
}
