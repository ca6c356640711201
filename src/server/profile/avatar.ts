/**
 * Avatars (spec §3 User info `image`; §7 PUT user carries `image`): a small picture per user, uploaded through
 * the tus endpoint with purpose 'avatar' (src/server/uploads/; metadata only the base keys). Checked on the
 * server: at most AVATAR_MAX_BYTES (413 at creation), a .png/.jpg/.jpeg/.webp/.gif name (415 at creation) and
 * bytes that really are PNG, JPEG, WebP or GIF (magic numbers; 415 at the end, bytes removed). Stored as
 * `DATA_DIR/avatars/<user id>` with a `user_avatars` row; `users.image` becomes `/api/avatars/<user id>?v=<first
 * 12 hex of its SHA-256>` (a new picture, a new URL), served by GET avatars/:userId with the sniffed type.
 */
import { copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { AVATAR_EXTENSIONS, AVATAR_MAX_BYTES } from '../../protocol/profile';
import { UPLOAD_ERROR_CODES } from '../../protocol/uploads';
import type { ServerContext } from '../context';
import { userAvatars, users } from '../db/schema';
import { HttpError } from '../errors';
import { toUserInfo } from '../routes/accounts';
import { requireExtension, type UploadPurpose } from '../uploads/purpose';

export const avatarsDir = (ctx: Pick<ServerContext, 'config'>) => path.join(ctx.config.dataDir, 'avatars');
export const avatarFile = (ctx: Pick<ServerContext, 'config'>, userId: string) =>
  path.join(avatarsDir(ctx), userId);

/** The image type of `head` (the file's first bytes) by its magic number, or null when it is none of ours. */
export function sniffImageType(
  head: Uint8Array,
): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (
    b.length >= 8 &&
    b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    b.length >= 12 &&
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

/** The avatar URL stored in users.image for a picture of `sha256`. */
export const avatarUrl = (userId: string, sha256: string) =>
  `/api/avatars/${userId}?v=${sha256.slice(0, 12)}`;

async function readHead(file: string, n = 16): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch {
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

/** Removes a user's avatar (row, file, users.image). */
export async function removeAvatar(ctx: ServerContext, userId: string): Promise<void> {
  await ctx.db.delete(userAvatars).where(eq(userAvatars.userId, userId));
  await ctx.db.update(users).set({ image: null }).where(eq(users.id, userId));
  await rm(avatarFile(ctx, userId), { force: true });
}

/** The upload purpose 'avatar' (see the module comment); its result is `{ user_info }`. */
export const avatarUploadPurpose: UploadPurpose<Record<string, never>> = {
  name: 'avatar',
  meta: z.object({}).transform(() => ({}) as Record<string, never>),
  maxBytes: AVATAR_MAX_BYTES,
  async accept(_ctx, _user, _meta, upload) {
    requireExtension(upload.fileName, AVATAR_EXTENSIONS);
  },
  async complete(ctx, user, file) {
    const type = sniffImageType(await readHead(file.path));
    if (!type) {
      throw new HttpError(
        415,
        UPLOAD_ERROR_CODES.unsupportedType,
        `${file.fileName}: the file is not a PNG, JPEG, WebP or GIF picture.`,
      );
    }
    await moveInto(file.path, avatarFile(ctx, user.id));
    await ctx.db
      .insert(userAvatars)
      .values({ userId: user.id, contentType: type, size: file.size, sha256: file.sha256 })
      .onConflictDoUpdate({
        target: userAvatars.userId,
        set: { contentType: type, size: file.size, sha256: file.sha256, updatedAt: new Date() },
      });
    const [row] = await ctx.db
      .update(users)
      .set({ image: avatarUrl(user.id, file.sha256) })
      .where(eq(users.id, user.id))
      .returning();
    return { user_info: toUserInfo(row ?? user) };
  },
};
