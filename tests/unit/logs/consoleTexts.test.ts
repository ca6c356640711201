/**
 * The logs feature's texts: every language gives every English key, non-empty, with the same {{placeholders}};
 * §8 texts keep the contract's English wording; the texts are registered in the console's i18next.
 */
import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import '../../../src/console/features/logs/i18n';
import { ch } from '../../../src/console/features/logs/languages/ch';
import { de } from '../../../src/console/features/logs/languages/de';
import { en } from '../../../src/console/features/logs/languages/en';
import { es } from '../../../src/console/features/logs/languages/es';
import { fr } from '../../../src/console/features/logs/languages/fr';
import { jp } from '../../../src/console/features/logs/languages/jp';
import { LOG_TEXTS } from '../../../src/protocol/logs';

const flat = (o: object, prefix = ''): Record<string, string> =>
  Object.entries(o).reduce<Record<string, string>>(
    (acc, [k, v]) =>
      typeof v === 'string'
        ? { ...acc, [prefix + k]: v }
        : { ...acc, ...flat(v as object, `${prefix}${k}.`) },
    {},
  );
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('logs texts', () => {
  const english = flat(en);
  for (const [lang, texts] of Object.entries({ ch, de, es, fr, jp })) {
    it(`${lang} gives every key with the same placeholders`, () => {
      const t = flat(texts);
      expect(Object.keys(t).sort()).toEqual(Object.keys(english).sort());
      for (const [k, v] of Object.entries(english)) {
        expect(t[k]!.trim(), `${lang} ${k}`).not.toBe('');
        expect(placeholders(t[k]!), `${lang} ${k}`).toEqual(placeholders(v));
      }
    });
  }

  it('§8 texts are the contract’s, and all six languages are registered', () => {
    expect(en.texts).toEqual(LOG_TEXTS);
    for (const lang of ['en', 'ch', 'es', 'jp', 'de', 'fr']) {
      expect(i18n.getResource(lang, 'translation', 'logs.title')).toBeTruthy();
    }
  });
});
