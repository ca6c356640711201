/**
 * Pure layout arithmetic of the camera grid — spec §2 "A grid of camera cells, 12 columns wide, at most 12
 * cameras per page; overflow opens a new page", §3 "Camera layout cell: x, y, w, h, i, minW, static, plus",
 * §9 "Camera grid: 12 cells per page, 12 columns wide" and the layout sizes. Used by cameraGrid.machine.ts;
 * no XState, no DOM, so it is unit-tested on its own.
 */
import type { DeviceCamera } from '../../src/protocol/commands';
import {
  CAMERA_GRID_CELLS_PER_PAGE,
  CAMERA_GRID_COLUMNS,
  CAMERA_LAYOUT_SIZES,
  type CameraLayoutSize,
} from '../../src/protocol/constants';
import type { LayoutCell } from '../../src/protocol/rest';

/** The size a new cell gets (§9 medium 4×7: three cells per row, four rows fill a page of 12). */
export const DEFAULT_LAYOUT_SIZE: CameraLayoutSize = 'medium';
/** Narrowest a cell may be resized to, grid columns (§3 minW). */
export const MIN_CELL_COLUMNS = 2;

/** What a grid entry needs for placement. */
export interface Placed {
  page: number;
  cell: LayoutCell;
}

/** Identity of a camera in a saved layout: `ip:{camera_id}` for IP cameras, `{device_id}:{camera_id}`. */
export function cameraKey(deviceId: string, camera: Pick<DeviceCamera, 'camera_id' | 'camera_type'>): string {
  return camera.camera_type === 'ip' ? `ip:${camera.camera_id}` : `${deviceId}:${camera.camera_id}`;
}

/** Number of pages for the given entries (at least 1; pages are 0-based and kept contiguous). */
export function pageCountOf(entries: readonly Placed[]): number {
  return Math.max(1, ...entries.map((e) => e.page + 1));
}

/** How many cells a page holds. */
export const cellsOnPage = (entries: readonly Placed[], page: number): number =>
  entries.filter((e) => e.page === page).length;

/**
 * The page a new stream goes to: the shown page if it has room, else the first page with room, else a new
 * page after the last (so the 13th camera opens page 2).
 */
export function pageForNew(entries: readonly Placed[], shown: number): number {
  if (cellsOnPage(entries, shown) < CAMERA_GRID_CELLS_PER_PAGE) return shown;
  const pages = pageCountOf(entries);
  for (let p = 0; p < pages; p++) if (cellsOnPage(entries, p) < CAMERA_GRID_CELLS_PER_PAGE) return p;
  return pages;
}

const overlaps = (a: LayoutCell, b: Omit<LayoutCell, 'i'>): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The first free position (top-left first, row by row) for a w×h cell among `cells`. */
export function freeSpot(cells: readonly LayoutCell[], w: number, h: number): { x: number; y: number } {
  const width = Math.min(w, CAMERA_GRID_COLUMNS);
  for (let y = 0; y < 10_000; y++) {
    for (let x = 0; x + width <= CAMERA_GRID_COLUMNS; x++) {
      if (!cells.some((c) => overlaps(c, { x, y, w: width, h }))) return { x, y };
    }
  }
  return { x: 0, y: Math.max(0, ...cells.map((c) => c.y + c.h)) };
}

/** A new cell of the given §9 size, placed in the first free spot of its page. */
export function newCell(
  i: string,
  cellsOfPage: readonly LayoutCell[],
  size: CameraLayoutSize = DEFAULT_LAYOUT_SIZE,
): LayoutCell {
  const { w, h } = CAMERA_LAYOUT_SIZES[size];
  return { i, ...freeSpot(cellsOfPage, w, h), w, h, minW: MIN_CELL_COLUMNS };
}

/** A cell resized to a §9 size; moved left when it would stick out of the 12 columns. */
export function resizeCell(cell: LayoutCell, size: CameraLayoutSize): LayoutCell {
  const { w, h } = CAMERA_LAYOUT_SIZES[size];
  return { ...cell, w, h, x: Math.min(cell.x, CAMERA_GRID_COLUMNS - w) };
}

/** The §9 size name whose w×h the cell has, or null (resized freely). */
export function sizeOf(cell: Pick<LayoutCell, 'w' | 'h'>): CameraLayoutSize | null {
  for (const [name, s] of Object.entries(CAMERA_LAYOUT_SIZES)) {
    if (s.w === cell.w && s.h === cell.h) return name as CameraLayoutSize;
  }
  return null;
}

/** A cell from the view (react-grid-layout) made valid: integers, inside the 12 columns, at least 1×1. */
export function clampCell(cell: LayoutCell): LayoutCell {
  const w = Math.min(CAMERA_GRID_COLUMNS, Math.max(1, Math.round(cell.w)));
  const x = Math.min(CAMERA_GRID_COLUMNS - w, Math.max(0, Math.round(cell.x)));
  return {
    ...cell,
    x,
    w,
    y: Math.max(0, Math.round(cell.y)),
    h: Math.min(48, Math.max(1, Math.round(cell.h))),
  };
}

/** Same position and size? */
export const sameCell = (a: LayoutCell, b: LayoutCell): boolean =>
  a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** Renumbers pages so none is empty (after a close), keeping their order. */
export function compactPages<T extends Placed>(entries: readonly T[]): T[] {
  const used = [...new Set(entries.map((e) => e.page))].sort((a, b) => a - b);
  const map = new Map(used.map((p, i) => [p, i]));
  return entries.map((e) => (map.get(e.page) === e.page ? e : { ...e, page: map.get(e.page)! }));
}

/**
 * `added` placed after `base`, each keeping its size: on the first page with room (from page 0), in the first
 * free spot there. Used when a saved layout arrives while streams are already open (they go where the saved
 * ones leave room, so none overlaps and no page holds more than 12).
 */
export function placeAfter<T extends Placed>(base: readonly Placed[], added: readonly T[]): T[] {
  const placed: Placed[] = [...base];
  const ordered = [...added].sort((a, b) => a.page - b.page || a.cell.y - b.cell.y || a.cell.x - b.cell.x);
  const out = new Map<T, T>();
  for (const e of ordered) {
    let page = 0;
    while (cellsOnPage(placed, page) >= CAMERA_GRID_CELLS_PER_PAGE) page++;
    const cells = placed.filter((p) => p.page === page).map((p) => p.cell);
    const moved = { ...e, page, cell: { ...e.cell, ...freeSpot(cells, e.cell.w, e.cell.h) } };
    placed.push(moved);
    out.set(e, moved);
  }
  return added.map((e) => out.get(e)!);
}
