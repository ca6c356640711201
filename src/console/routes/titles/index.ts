/**
 * The route table's titles in the six languages (§2): `titleKey` turns a route's English `title` into its key
 * under `routeTitles` ("Admin: audit log" → "adminAuditLog").
 */
export { ch } from './ch';
export { de } from './de';
export { en } from './en';
export { es } from './es';
export { fr } from './fr';
export { jp } from './jp';

/** The text key of an English route title: its words in camelCase. */
export function titleKey(title: string): string {
  const words = title.match(/[A-Za-z0-9]+/g) ?? [];
  return words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}
