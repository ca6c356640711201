/**
 * Uploads kept in the browser to resume after a reload (issue 9 "Uploads": "after a page reload … the upload
 * resumes from where it stopped"): IndexedDB database `edge-uploads`, store `uploads`, one record per running
 * upload with its File (the browser keeps a File in IndexedDB as a blob on disk, not in memory), its purpose and
 * metadata, its SHA-256 once computed and its tus URL once created. Records belong to the user who started them
 * (`owner`); only that user's are resumed. A record is removed when its upload ends (done, failed, cancelled).
 * Where IndexedDB is missing or refuses the file (private mode, quota), the upload still runs; only a reload
 * loses it.
 */
import type { StoredUploadInput } from '../../../../machines/uploads/uploads.machine';

/** One kept upload. */
export interface StoredUpload {
  id: string;
  owner: string;
  file: Blob;
  fileName: string;
  size: number;
  purpose: string;
  meta: Record<string, string>;
  sha256: string | null;
  uploadUrl: string | null;
}

const DB_NAME = 'edge-uploads';
const STORE = 'uploads';

let opening: Promise<IDBDatabase | null> | null = null;

/** The database, or null when IndexedDB is not available. */
function open(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
  return opening;
}

/** Runs one request in a transaction; resolves with its result (undefined without IndexedDB). */
async function run<T>(
  mode: IDBTransactionMode,
  make: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  const db = await open();
  if (!db) return undefined;
  return new Promise<T>((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = make(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted'));
  });
}

/** Keeps (or replaces) a record. Resolves false when it could not be kept (no IndexedDB, quota). */
export async function keepUpload(record: StoredUpload): Promise<boolean> {
  try {
    await run('readwrite', (s) => s.put(record));
    return (await open()) !== null;
  } catch {
    return false;
  }
}

/** Updates some fields of a kept record (its hash, its tus URL); nothing when it is not kept. */
export async function updateUpload(id: string, patch: Partial<Pick<StoredUpload, 'sha256' | 'uploadUrl'>>) {
  try {
    const now = (await run('readonly', (s) => s.get(id))) as StoredUpload | undefined;
    if (now) await run('readwrite', (s) => s.put({ ...now, ...patch }));
  } catch {
    // Not kept: a reload loses this upload.
  }
}

/** Removes a kept record (no error when there is none). */
export async function forgetUpload(id: string): Promise<void> {
  try {
    await run('readwrite', (s) => s.delete(id));
  } catch {
    // Nothing to remove.
  }
}

/** The kept uploads of `owner`, as upload actor inputs. */
export async function storedUploadsOf(owner: string): Promise<StoredUploadInput[]> {
  try {
    const all = ((await run('readonly', (s) => s.getAll())) ?? []) as StoredUpload[];
    return all
      .filter((r) => r.owner === owner)
      .map((r) => ({
        id: r.id,
        file: r.file,
        fileName: r.fileName,
        size: r.size,
        purpose: r.purpose,
        meta: r.meta,
        sha256: r.sha256,
        uploadUrl: r.uploadUrl,
      }));
  } catch {
    return [];
  }
}
