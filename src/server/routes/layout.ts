/**
 * The caller's saved camera page (issue 3 "the layout survives a reload and a new sign-in on the same
 * account"; spec §2 Camera control page, §3 Camera layout cell, §9 camera grid). Not a spec §7 call.
 *   GET camera-layout  → CameraLayoutResponse { streams: SavedStream[], updated_at: ISO string | null };
 *                        `streams` is [] and `updated_at` null when the user never saved one.
 *   PUT camera-layout  CameraLayout { streams } → the same answer as GET, after saving (replaces the whole
 *                        layout). 400 Validation_error with a readable message when:
 *                        - the body does not match CameraLayout (field path and reason in the message);
 *                        - two streams share a `key`, or two cells on one page share an `i`;
 *                        - a page holds more than 12 streams (§9 CAMERA_GRID_CELLS_PER_PAGE);
 *                        - a cell sticks out of the 12 grid columns (x + w > 12, §9 CAMERA_GRID_COLUMNS);
 *                        - a stream names a device (`deviceId` = device_id) that is not the caller's.
 * Each user reads and writes only their own row.
 */
import { and, eq, inArray } from 'drizzle-orm';
import {
  CAMERA_GRID_CELLS_PER_PAGE,
  CAMERA_GRID_COLUMNS,
  SavedStream,
  type layoutRoutes,
} from '../../protocol';
import { userOf } from '../auth/guard';
import { cameraLayouts, devices } from '../db/schema';
import { badRequest } from '../errors';
import type { HandlersOf } from './register';

/** Checks the rules of a layout that the zod shape cannot express; returns the first problem or null. */
export function layoutProblem(streams: readonly SavedStream[]): string | null {
  const keys = new Set<string>();
  const perPage = new Map<number, Set<string>>();
  for (const [n, s] of streams.entries()) {
    if (keys.has(s.key)) return `body.streams.${n}.key: "${s.key}" appears twice`;
    keys.add(s.key);
    const cells = perPage.get(s.page) ?? new Set<string>();
    if (cells.has(s.cell.i)) return `body.streams.${n}.cell.i: "${s.cell.i}" appears twice on page ${s.page}`;
    cells.add(s.cell.i);
    perPage.set(s.page, cells);
    if (cells.size > CAMERA_GRID_CELLS_PER_PAGE) {
      return `body.streams: page ${s.page} holds more than ${CAMERA_GRID_CELLS_PER_PAGE} streams`;
    }
    if (s.cell.x + s.cell.w > CAMERA_GRID_COLUMNS) {
      return `body.streams.${n}.cell: x + w must not exceed ${CAMERA_GRID_COLUMNS} columns`;
    }
  }
  return null;
}

/** Stored streams as SavedStream[]; entries that no longer match the contract are dropped. */
function readStreams(stored: unknown): SavedStream[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((s) => {
    const parsed = SavedStream.safeParse(s);
    return parsed.success ? [parsed.data] : [];
  });
}

export const layoutHandlers: HandlersOf<typeof layoutRoutes> = (ctx) => ({
  'layout.get': async (_input, request) => {
    const [row] = await ctx.db
      .select()
      .from(cameraLayouts)
      .where(eq(cameraLayouts.userId, userOf(request).id))
      .limit(1);
    return row
      ? { streams: readStreams(row.streams), updated_at: row.updatedAt.toISOString() }
      : { streams: [], updated_at: null };
  },

  'layout.put': async ({ body }, request) => {
    const user = userOf(request);
    const { streams } = body;
    const problem = layoutProblem(streams);
    if (problem) throw badRequest(problem);
    const named = [...new Set(streams.map((s) => s.deviceId))];
    if (named.length > 0) {
      const own = await ctx.db
        .select({ deviceId: devices.deviceId })
        .from(devices)
        .where(and(eq(devices.ownerId, user.id), inArray(devices.deviceId, named)));
      const ownIds = new Set(own.map((d) => d.deviceId));
      const foreign = named.find((d) => !ownIds.has(d));
      if (foreign !== undefined)
        throw badRequest(`body.streams: device ${foreign} is not one of your devices`);
    }
    const now = new Date();
    await ctx.db
      .insert(cameraLayouts)
      .values({ userId: user.id, streams, updatedAt: now })
      .onConflictDoUpdate({ target: cameraLayouts.userId, set: { streams, updatedAt: now } });
    return { streams, updated_at: now.toISOString() };
  },
});
