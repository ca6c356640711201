/**
 * LLaVA on the `sim` engine (issue 14 "answers composed from the scene truth at the frame's time (names the
 * objects, counts, colours, positions) so tests can check them"). The last user message is read for what it
 * asks — how many of a kind, what colour, where, or (anything else) a description of the whole frame — and
 * the answer is built from the truth objects only, in English (as a LLaVA model answers). Pure.
 * `tokens()` splits an answer the way it streams: one word (with its following space) per token.
 */
import { parseQuery } from './owl';
import type { TruthObject } from './truth';

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const countWord = (n: number) => NUMBER_WORDS[n] ?? String(n);
const plural = (label: string, n: number) => (n === 1 ? label : label === 'person' ? 'people' : `${label}s`);

/** "the red car on the left, near the top". */
function describe(o: TruthObject): string {
  const where =
    o.column === 'centre' && o.row === 'middle'
      ? 'in the centre'
      : `${o.column === 'centre' ? 'in the middle' : `on the ${o.column}`}, ${
          o.row === 'top' ? 'near the top' : o.row === 'bottom' ? 'near the bottom' : 'halfway down'
        }`;
  return `a ${o.colour} ${o.label} ${where}`;
}

function joinList(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Counts by label in first-seen order: "two people, one car and one ball". */
export function countPhrase(objects: readonly TruthObject[]): string {
  const counts = new Map<string, number>();
  for (const o of objects) counts.set(o.label, (counts.get(o.label) ?? 0) + 1);
  return joinList([...counts].map(([label, n]) => `${countWord(n)} ${plural(label, n)}`));
}

/** The answer to `question` about the frame whose objects are `objects`. */
export function answerQuestion(objects: readonly TruthObject[], question: string): string {
  const q = question.toLowerCase();
  if (objects.length === 0) return 'The frame shows an empty scene: I cannot see any objects in it.';
  const asked = parseQuery(
    q.replace(/how many|what colou?r|where|is|are|there|do|you|see|in|the|frame|\?/g, ' '),
  );
  const subject = asked.label ? objects.filter((o) => o.label === asked.label) : [];
  if (/how many/.test(q)) {
    if (asked.label)
      return `I can see ${countWord(subject.length)} ${plural(asked.label, subject.length)} in the frame.`;
    return `I can see ${objects.length} objects: ${countPhrase(objects)}.`;
  }
  if (/colou?r/.test(q) && asked.label) {
    if (!subject.length) return `There is no ${asked.label} in the frame.`;
    return `${joinList(subject.map((o) => `The ${o.label} ${subject.length > 1 ? `#${o.trackId} ` : ''}is ${o.colour}`))}.`;
  }
  if (/where/.test(q) && asked.label) {
    if (!subject.length) return `There is no ${asked.label} in the frame.`;
    return `I can see ${joinList(subject.map(describe))}.`;
  }
  return `The camera shows ${countPhrase(objects)}: ${joinList(objects.map(describe))}.`;
}

/** The answer as it streams: words with their trailing space. */
export function tokens(answer: string): string[] {
  return answer.match(/\S+\s*/g) ?? [];
}
