/**
 * Defects the fuzz harness found that are not fixed yet, each with the failures it explains. A run reports
 * them (failures carry `known: id`) but the bounded sample in `npm test` does not fail on them; anything
 * else fails it. Remove an entry when its fix lands: the harness then holds the fix.
 */
import type { Failure } from './report';

export interface KnownDefect {
  id: string;
  /** Where it lives and what happens. */
  note: string;
  match(f: Failure): boolean;
}

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  // None open: agent-text-frame, agent-still-flood and server-431-shape are fixed and held by the harness.
];

/** The known defect a failure belongs to, or undefined. */
export const knownDefectOf = (f: Failure): string | undefined => KNOWN_DEFECTS.find((d) => d.match(f))?.id;
