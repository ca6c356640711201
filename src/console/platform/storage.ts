/**
 * The stored session — spec §3 "Stored settings: key names for the id token, the refresh token and the
 * client token"; §4 "Logout clears tokens, user info and several other stores".
 * Local storage keys are STORAGE_KEYS of src/protocol/constants.ts. Nothing here throws: a browser without
 * storage (or a full one) simply does not remember the session.
 */
import type { StoredSession } from '../../../machines/accounts/auth.machine';
import { STORAGE_KEYS } from '../../protocol/constants';
import type { UserInfo } from '../../protocol/rest';

const ROLES: readonly string[] = ['admin', 'user'];
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/**
 * The stored user when it has the shape of rest.ts `UserInfo` (checked structurally, so the first page does
 * not load zod), reduced to its fields; null otherwise.
 */
export function parseStoredUser(value: unknown): UserInfo | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, email, username, bio, image, roles } = value as Record<string, unknown>;
  if (typeof id !== 'string' || typeof email !== 'string' || typeof username !== 'string') return null;
  if (!isStringOrNull(bio) || !isStringOrNull(image)) return null;
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string' && ROLES.includes(r))) return null;
  return { id, email, username, bio, image, roles: [...(roles as UserInfo['roles'])] };
}

/** The part of the Web Storage API we use. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's localStorage when there is one, else null. */
export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** Reads, writes and clears the session in `storage` (null: remember nothing). */
export function createSessionStore(storage: KeyValueStorage | null) {
  const safe = (fn: () => void) => {
    try {
      fn();
    } catch {
      // Storage full or blocked: the session just is not remembered.
    }
  };
  return {
    /** The stored session, or null when there is no complete one. */
    read(): StoredSession | null {
      if (!storage) return null;
      try {
        const token = storage.getItem(STORAGE_KEYS.idToken);
        const refreshToken = storage.getItem(STORAGE_KEYS.refreshToken);
        if (!token || !refreshToken) return null;
        const rawUser = storage.getItem(STORAGE_KEYS.user);
        const user = rawUser ? parseStoredUser(JSON.parse(rawUser)) : null;
        return { token, refreshToken, user };
      } catch {
        return null;
      }
    },
    write(session: StoredSession): void {
      if (!storage) return;
      safe(() => {
        storage.setItem(STORAGE_KEYS.idToken, session.token);
        storage.setItem(STORAGE_KEYS.refreshToken, session.refreshToken);
        if (session.user) storage.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
      });
    },
    /** Removes tokens, user info and the client token (the interface language stays). */
    clear(): void {
      if (!storage) return;
      safe(() => {
        storage.removeItem(STORAGE_KEYS.idToken);
        storage.removeItem(STORAGE_KEYS.refreshToken);
        storage.removeItem(STORAGE_KEYS.clientToken);
        storage.removeItem(STORAGE_KEYS.user);
      });
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;
