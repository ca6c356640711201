/**
 * Sidebar rules of spec §2 ("The sidebar starts collapsed, can be toggled, and collapses automatically
 * under width 1155") and §4 ("Sidebar: collapse toggles"). Pure, so the rule is unit-tested.
 */
import { SIDEBAR_COLLAPSE_WIDTH_PX } from '../../protocol/constants';

/** The sidebar starts collapsed (§2). */
export const SIDEBAR_INITIAL_OPEN = false;

/** True when a viewport of `widthPx` is narrow enough that the sidebar must collapse (< 1155 px). */
export function isNarrowViewport(widthPx: number): boolean {
  return widthPx < SIDEBAR_COLLAPSE_WIDTH_PX;
}

/**
 * The sidebar's open state after the viewport width changes from `prevWidthPx` to `widthPx`.
 * Crossing below 1155 px collapses it; widening never opens it by itself (the user opens it with the
 * toggle), and a user who opens it on a narrow screen keeps it open until the next narrowing.
 */
export function sidebarOpenAfterResize(open: boolean, prevWidthPx: number | null, widthPx: number): boolean {
  const becameNarrow = isNarrowViewport(widthPx) && (prevWidthPx === null || !isNarrowViewport(prevWidthPx));
  return becameNarrow ? false : open;
}
