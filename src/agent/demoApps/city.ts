/**
 * IBB, the city operations view (README "Decisions where the spec is silent": IBB): what one camera saw in a
 * window — every person (with age band and gender where the scene gives them) and every vehicle (with its
 * plate), first and last time in view. Sampled every `stepMs` from the scene truth. Pure.
 */
import type { CitySighting } from '../../protocol/demoApps';
import { VEHICLE_LABELS } from './speed';
import type { TruthObject } from './truth';

const pick = (a: Record<string, string>, ...keys: string[]): string | null => {
  for (const k of keys) if (a[k]) return a[k]!;
  return null;
};

export function observeCity(
  objectsAt: (timeMs: number) => readonly TruthObject[],
  from: number,
  to: number,
  stepMs = 500,
): CitySighting[] {
  const seen = new Map<string, CitySighting>();
  const steps = Math.max(1, Math.ceil((to - from) / stepMs));
  for (let i = 0; i <= steps; i++) {
    const t = Math.min(to, from + i * stepMs);
    for (const o of objectsAt(t)) {
      const kind = o.label === 'person' ? 'person' : VEHICLE_LABELS.has(o.label) ? 'vehicle' : null;
      if (!kind) continue;
      const key = `${kind}:${pick(o.attributes, 'identity', 'plate') ?? `${o.trackId}.${o.pass}`}`;
      const s = seen.get(key);
      if (s) s.last_seen = t;
      else
        seen.set(key, {
          kind,
          track_id: o.trackId,
          first_seen: t,
          last_seen: t,
          age_band: kind === 'person' ? pick(o.attributes, 'age_band') : null,
          gender: kind === 'person' ? pick(o.attributes, 'gender') : null,
          plate: kind === 'vehicle' ? pick(o.attributes, 'plate') : null,
          colour: o.colour,
        });
    }
  }
  return [...seen.values()];
}
