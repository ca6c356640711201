/**
 * REST calls of the faces feature (src/protocol/faces.ts), by route name: the gallery, the people seen,
 * enrolling from an event or by upload (the picture is the raw body, sent with its own type), rename /
 * blacklist, delete, and the face alarms' events. `checkPicture` refuses in the browser what the server
 * would refuse (type by the first bytes, size), with the server's texts.
 */
import type { FaceAlarmEventsQueryIn } from '../../../protocol/faces';
import { FACE_PICTURE_MAX_BYTES, FACE_TEXTS } from '../../../protocol/faces';
import type { CallOptions, Http } from '../../platform/http';

/** The picture's type by its first bytes (JPEG FF D8 FF, PNG 89 50 4E 47 0D 0A 1A 0A), or null. */
export function pictureTypeOfBytes(head: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (head.length > 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length > png.length && png.every((b, i) => head[i] === b)) return 'image/png';
  return null;
}

/**
 * The content type to send a picture with: a JPEG or PNG by its bytes, else the type it claims when it is one
 * of the two (the server reads the bytes and answers FACE_TEXTS.badPicture). @throws too large, not a picture.
 */
export async function checkPicture(picture: Blob): Promise<'image/jpeg' | 'image/png'> {
  if (picture.size > FACE_PICTURE_MAX_BYTES) throw new Error(FACE_TEXTS.tooLarge);
  const byBytes = pictureTypeOfBytes(new Uint8Array(await picture.slice(0, 16).arrayBuffer()));
  if (byBytes) return byBytes;
  if (picture.type === 'image/jpeg' || picture.type === 'image/png') return picture.type;
  throw new Error(FACE_TEXTS.badPicture);
}

export function facesApi(http: Http) {
  return {
    list: async (signal?: AbortSignal) => (await http.call('faces.list', { signal })).faces,
    seen: (signal?: AbortSignal) => http.call('faces.seen', { signal }),
    enrollFromEvent: (
      body: { event_id: string; label?: string; blacklisted: boolean },
      signal?: AbortSignal,
    ) => http.call('faces.enrollFromEvent', { body, signal }),
    upload: async (
      input: { picture: Blob; identity: string; label: string; blacklisted: boolean },
      signal?: AbortSignal,
    ) => {
      const type = await checkPicture(input.picture);
      // The body is the picture itself (no body schema in the route table: it is not JSON).
      const opts = {
        query: { identity: input.identity, label: input.label, blacklisted: String(input.blacklisted) },
        body: input.picture,
        headers: { 'Content-Type': type },
        signal,
      } as unknown as CallOptions<'faces.upload'>;
      return http.call('faces.upload', opts);
    },
    update: (id: string, body: { label?: string; blacklisted?: boolean }, signal?: AbortSignal) =>
      http.call('faces.update', { params: { id }, body, signal }),
    remove: (id: string, signal?: AbortSignal) => http.call('faces.remove', { params: { id }, signal }),
    alarmEvents: (query: FaceAlarmEventsQueryIn, signal?: AbortSignal) =>
      http.call('faces.alarmEvents', { query, signal }),
    review: (id: string, reviewed: boolean, signal?: AbortSignal) =>
      http.call('events.review', { body: { ids: [id], reviewed }, signal }),
  };
}
