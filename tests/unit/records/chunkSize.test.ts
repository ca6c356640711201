/**
 * A full records chunk fits one device-link message (src/protocol/records.ts RECORD_CHUNK_BYTES; the agent's
 * MAX_MESSAGE_BYTES, PeerJS's JSON limit): the largest save request and read reply, in their link envelopes
 * with the longest ids, stay under it. (A 12 KB chunk did not: "Message too big for JSON channel".)
 */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../../src/agent/link/session';
import { RECORD_CHUNK_BYTES, RECORD_MAX_BYTES } from '../../../src/protocol/records';

const base64 = Buffer.alloc(RECORD_CHUNK_BYTES, 0xff).toString('base64');
const requestId = 'r'.repeat(100);

describe('records chunk size', () => {
  it('a save chunk request fits one link message', () => {
    const message = {
      type: 'request',
      process: 'records-save-chunk',
      requestId,
      payload: { upload_id: 'u'.repeat(64), offset: RECORD_MAX_BYTES, data: base64 },
    };
    expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThan(MAX_MESSAGE_BYTES);
  });

  it('a read reply fits one link message', () => {
    const message = {
      type: 'reply',
      process: 'records-read',
      requestId,
      ok: true,
      data: { data: base64, offset: RECORD_MAX_BYTES, size: RECORD_MAX_BYTES, eof: false },
    };
    expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThan(MAX_MESSAGE_BYTES);
  });
});
