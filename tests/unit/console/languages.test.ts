/**
 * Six complete languages (spec §2: en, ch, es, jp, de, fr; issue 14): every text set of the console — the
 * shell's (src/console/i18n) and each feature's `languages/` (and the public policies) — is checked here:
 * - every language gives exactly the English keys, each a non-empty string;
 * - every translation keeps the English text's {{placeholders}} (and adds none);
 * - the texts are translated: at most a small share of a set's texts may equal the English one (names such as
 *   "GPU", "RTSP", "OK" read the same in every language).
 * English is the reference: a key in another language that English lacks is a stale text.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/protocol/constants';
import { ROUTES } from '../../../src/console/routes/table';
import { en as routeTitles, titleKey } from '../../../src/console/routes/titles';

const ROOT = path.resolve(__dirname, '../../../src/console');
/** Most of a set's texts that may read the same as English (names, units, abbreviations). */
export const SAME_AS_ENGLISH_SHARE = 0.25;

/** Every directory holding a complete text set: en.ts plus the other five languages. */
function textSets(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (!statSync(full).isDirectory()) continue;
    const files = readdirSync(full);
    if (files.includes('en.ts') && files.some((f) => /^(ch|es|jp|de|fr)\.ts$/.test(f))) found.push(full);
    found.push(...textSets(full));
  }
  return found;
}

/** Flattens a nested text object to dotted keys → texts (non-string leaves are kept to be reported). */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, value);
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();
/** A text with no letters of a word (numbers, units, symbols) or an all-capitals abbreviation. */
const neutral = (text: string) => !/[a-z]{3,}/.test(text) || /^[A-Z0-9 ./:+\-()%×]+$/.test(text);

const sets = textSets(ROOT).map((dir) => path.relative(ROOT, dir));

describe('six complete languages', () => {
  it('finds the text sets of the shell and of the features', () => {
    expect(sets).toContain('i18n');
    expect(sets.length).toBeGreaterThan(30);
  });

  it('has a text for every screen title of the route table (the browser tab names the screen)', () => {
    const missing = ROUTES.flatMap((r) => (titleKey(r.title) in routeTitles ? [] : [r.title]));
    expect(missing).toEqual([]);
  });

  describe.each(sets)('%s', (set) => {
    it('gives every English key in every language, translated, with the same placeholders', async () => {
      const load = async (lang: string) => {
        const mod = (await import(path.join(ROOT, set, `${lang}.ts`))) as Record<string, unknown>;
        expect(mod[lang], `${set}/${lang}.ts exports \`${lang}\``).toBeTruthy();
        return flatten(mod[lang]);
      };
      const en = await load('en');
      expect(en.size).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
        const other = await load(lang);
        let same = 0;
        let counted = 0;
        for (const [key, text] of en) {
          const theirs = other.get(key);
          if (typeof text !== 'string') continue;
          if (typeof theirs !== 'string' || theirs.trim() === '') {
            problems.push(`${lang}: ${key} is missing`);
            continue;
          }
          if (placeholders(theirs).join() !== placeholders(text).join())
            problems.push(
              `${lang}: ${key} has {{${placeholders(theirs).join()}}}, English {{${placeholders(text).join()}}}`,
            );
          if (!neutral(text)) {
            counted++;
            if (theirs === text) same++;
          }
        }
        for (const key of other.keys())
          if (!en.has(key)) problems.push(`${lang}: ${key} is not an English key`);
        if (counted >= 4 && same / counted > SAME_AS_ENGLISH_SHARE)
          problems.push(`${lang}: ${same} of ${counted} texts are the English ones`);
      }
      expect(problems).toEqual([]);
    });
  });
});
