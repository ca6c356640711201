/**
 * Loads the features whose actors come in a chunk of their own (ConsoleFeature.loadActors), so /login ships
 * none of their machines: every such feature at the first sign-in, and one a screen asks for before
 * (`system.features.want`, e.g. a public page). When a chunk arrives its actors are handed to the root machine
 * (`system.features.loaded`) and the feature's notices are forwarded. A chunk that cannot be fetched logs why
 * and reloads the page after 3 s (§2 "A failed page-chunk load reloads the page after 3 s").
 */
import type { ConsoleFeature, Platform } from '../features/feature';
import { scheduleChunkReload } from './chunkReload';
import { forwardNotices } from './forwardNotices';
import type { ConsoleSystem } from './SystemProvider';

/** Watches the root; returns a function that stops watching (loads under way still complete). */
export function loadLazyFeatures(
  root: ConsoleSystem,
  platform: Platform,
  features: readonly ConsoleFeature[],
  onChunkFailed: () => void = scheduleChunkReload,
): () => void {
  const lazy = features.filter((f) => f.loadActors);
  const started = new Set<string>();
  const load = (feature: ConsoleFeature) => {
    started.add(feature.name);
    feature.loadActors!().then(
      (make) => {
        root.send({ type: 'system.features.loaded', name: feature.name, features: make(platform) });
        if (feature.notices?.length) forwardNotices(root, feature.notices);
      },
      (error: unknown) => {
        console.error(`the ${feature.name} feature's chunk failed to load`, error);
        onChunkFailed();
      },
    );
  };
  const check = () => {
    const snapshot = root.getSnapshot();
    const all = snapshot.matches('signedIn');
    for (const feature of lazy) {
      if (started.has(feature.name)) continue;
      if (all || snapshot.context.wanted.includes(feature.name)) load(feature);
    }
  };
  const subscription = root.subscribe(check);
  check();
  return () => subscription.unsubscribe();
}
