/**
 * The records feature's device commands over the peer link (src/protocol/records.ts; issue 16 §2 records):
 * list, chunked save (begin/chunk/finish/abort), chunked read, remove. Failures reject with the platform's
 * DeviceCommandError { code, message } (RECORD_ERROR_CODES).
 */
import { RECORD_CHUNK_BYTES } from '../../../protocol/records';
import type { CallDevice } from '../../platform/peerLink';

/** Bytes → base64 (browser). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
/** base64 → bytes (browser). */
export function fromBase64(data: string): Uint8Array {
  const s = atob(data);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** SHA-256 of a blob, lower-case hex (WebCrypto). */
export async function sha256Hex(blob: Blob): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function recordCommands(call: CallDevice) {
  return {
    list: (deviceId: string) => call(deviceId, 'records-list', { page: 1, page_size: 100 }),
    remove: (deviceId: string, name: string) => call(deviceId, 'records-remove', { name }),

    /** Sends a file in RECORD_CHUNK_BYTES chunks; `onProgress(done, total)`; `signal` aborts (and drops it). */
    async upload(
      deviceId: string,
      name: string,
      blob: Blob,
      camera: string | null,
      onProgress: (done: number, total: number) => void,
      signal: AbortSignal,
    ) {
      const sha256 = await sha256Hex(blob);
      const { upload_id } = await call(deviceId, 'records-save-begin', {
        name,
        size: blob.size,
        sha256,
        camera,
      });
      try {
        for (let offset = 0; offset < blob.size; offset += RECORD_CHUNK_BYTES) {
          if (signal.aborted) throw new Error('cancelled');
          const bytes = new Uint8Array(await blob.slice(offset, offset + RECORD_CHUNK_BYTES).arrayBuffer());
          const { received } = await call(deviceId, 'records-save-chunk', {
            upload_id,
            offset,
            data: toBase64(bytes),
          });
          onProgress(received, blob.size);
        }
        return await call(deviceId, 'records-save-finish', { upload_id });
      } catch (e) {
        void call(deviceId, 'records-save-abort', { upload_id }).catch(() => undefined);
        throw e;
      }
    },

    /** Reads a whole recording in chunks into a video/webm Blob. */
    async download(
      deviceId: string,
      name: string,
      onProgress: (done: number, total: number) => void,
      signal: AbortSignal,
    ) {
      const parts: Uint8Array[] = [];
      let offset = 0;
      for (;;) {
        if (signal.aborted) throw new Error('cancelled');
        const r = await call(deviceId, 'records-read', { name, offset, length: RECORD_CHUNK_BYTES });
        const bytes = fromBase64(r.data);
        parts.push(bytes);
        offset += bytes.length;
        onProgress(offset, r.size);
        if (r.eof || bytes.length === 0) break;
      }
      return new Blob(parts as BlobPart[], { type: 'video/webm' });
    },
  };
}
export type RecordCommands = ReturnType<typeof recordCommands>;
