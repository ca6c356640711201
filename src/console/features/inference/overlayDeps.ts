/** How overlays reach devices (set by the feature's actors once they start; null before sign-in). */
import type { ChannelDeps } from './channels';

let deps: ChannelDeps | null = null;

export function setOverlayDeps(d: ChannelDeps): void {
  deps = d;
}

export function overlayDeps(): ChannelDeps | null {
  return deps;
}
