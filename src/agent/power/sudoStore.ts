/**
 * The device's saved sudo password (§7 "Sudo": a saved password is stored encrypted on the device and can be
 * removed): AES-256-GCM with a random 32-byte key kept in `<stateDir>/sudo.key` (mode 0600, made on the first
 * save); the sealed password in `<stateDir>/sudo.enc` (mode 0600, JSON `{ v: 1, iv, tag, data }`, base64).
 * The password is never logged. A file that cannot be read or opened (corrupt, other key) counts as none saved.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'sudo.key';
const DATA_FILE = 'sudo.enc';

interface Sealed {
  v: 1;
  iv: string;
  tag: string;
  data: string;
}

export interface SudoStore {
  /** Is a password saved (the sealed file exists)? */
  has(): Promise<boolean>;
  /** The saved password, or null (none, or it cannot be opened). */
  load(): Promise<string | null>;
  /** Seals and saves `password`, replacing any saved one. */
  save(password: string): Promise<void>;
  /** Removes the saved password; false when none was saved. */
  remove(): Promise<boolean>;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** The store kept in `stateDir` (which exists: AgentPartDeps.stateDir). */
export function createSudoStore(stateDir: string): SudoStore {
  const keyFile = path.join(stateDir, KEY_FILE);
  const dataFile = path.join(stateDir, DATA_FILE);

  /** The key, made (0600) when missing and `create` is set; null when missing or not 32 bytes. */
  async function key(create: boolean): Promise<Buffer | null> {
    try {
      const k = await fs.readFile(keyFile);
      if (k.length === 32) return k;
      if (!create) return null;
    } catch {
      if (!create) return null;
    }
    const k = randomBytes(32);
    await fs.writeFile(keyFile, k, { mode: 0o600 });
    await fs.chmod(keyFile, 0o600);
    return k;
  }

  return {
    has: () => exists(dataFile),

    async load() {
      try {
        const k = await key(false);
        if (!k) return null;
        const sealed = JSON.parse(await fs.readFile(dataFile, 'utf8')) as Sealed;
        const decipher = createDecipheriv('aes-256-gcm', k, Buffer.from(sealed.iv, 'base64'));
        decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
        return Buffer.concat([
          decipher.update(Buffer.from(sealed.data, 'base64')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return null;
      }
    },

    async save(password) {
      const k = (await key(true))!;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const data = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
      const sealed: Sealed = {
        v: 1,
        iv: iv.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
        data: data.toString('base64'),
      };
      const tmp = `${dataFile}.${process.pid}.tmp`;
      await fs.writeFile(tmp, JSON.stringify(sealed), { mode: 0o600 });
      await fs.rename(tmp, dataFile);
    },

    async remove() {
      if (!(await exists(dataFile))) return false;
      await fs.rm(dataFile, { force: true });
      return true;
    },
  };
}
