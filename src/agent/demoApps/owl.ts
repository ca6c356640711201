/**
 * NanoOWL on the `sim` engine (issue 14 "open-vocabulary match of the prompt against scene labels (+ simple
 * synonyms) → true boxes"). A prompt holds one or more queries separated by commas, semicolons or " and "
 * ("a person, the red car"); each query is matched against the scene labels through a small vocabulary of
 * synonyms and plurals, and an optional colour word narrows it ("red car" finds only red cars). Matched
 * objects get their true box; the score is a fixed function of how the query matched (exact label 0.9,
 * synonym 0.8), so answers are checkable. Pure.
 */
import type { OwlDetection } from '../../protocol/demoApps';
import type { TruthObject } from './truth';

/** Words that name each scene label (lower case, singular and plural). */
export const SYNONYMS: Record<string, readonly string[]> = {
  person: [
    'person',
    'people',
    'persons',
    'human',
    'humans',
    'man',
    'men',
    'woman',
    'women',
    'pedestrian',
    'pedestrians',
    'someone',
    'figure',
    'figures',
  ],
  car: [
    'car',
    'cars',
    'vehicle',
    'vehicles',
    'automobile',
    'automobiles',
    'auto',
    'taxi',
    'truck',
    'trucks',
    'van',
    'vans',
  ],
  ball: ['ball', 'balls', 'sphere', 'spheres', 'circle', 'circles', 'football', 'soccer ball'],
};

const COLOURS = [
  'red',
  'green',
  'blue',
  'yellow',
  'purple',
  'cyan',
  'white',
  'black',
  'grey',
  'gray',
  'orange',
];
const FILLER = new Set(['a', 'an', 'the', 'some', 'any', 'of', 'photo', 'picture', 'image']);

/** Splits a prompt into its queries (at most 20, trimmed, non-empty, lower case). */
export function splitPrompt(prompt: string): string[] {
  return prompt
    .toLowerCase()
    .split(/[,;\n]|\s+and\s+/)
    .map((q) => q.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .slice(0, 20);
}

/** What one query asks for: a label (or null when no label matches), how well it matched, a colour. */
export function parseQuery(query: string): { label: string | null; exact: boolean; colour: string | null } {
  const words = query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w));
  let colour: string | null = null;
  const rest: string[] = [];
  for (const w of words) {
    if (!colour && COLOURS.includes(w)) colour = w === 'gray' ? 'grey' : w;
    else rest.push(w);
  }
  const phrase = rest.join(' ');
  for (const [label, names] of Object.entries(SYNONYMS)) {
    if (phrase === label || phrase === `${label}s`) return { label, exact: true, colour };
    if (names.includes(phrase) || rest.some((w) => names.includes(w)))
      return { label, exact: rest.includes(label), colour };
  }
  return { label: null, exact: false, colour };
}

/** Detections of `prompt` among the truth objects, scores ≥ threshold. */
export function detectOpenVocabulary(
  objects: readonly TruthObject[],
  prompt: string,
  threshold: number,
): { queries: string[]; detections: OwlDetection[] } {
  const queries = splitPrompt(prompt);
  const detections: OwlDetection[] = [];
  for (const query of queries) {
    const q = parseQuery(query);
    if (!q.label) continue;
    const score = q.exact ? 0.9 : 0.8;
    if (score < threshold) continue;
    for (const o of objects) {
      if (o.label !== q.label) continue;
      if (q.colour && o.colour !== q.colour) continue;
      detections.push({ query, label: o.label, score, track_id: o.trackId, box: o.box });
    }
  }
  return { queries, detections };
}
