import { describe, expect, it } from 'vitest';
import { CommandError } from '../../../src/agent/commands/errors';
import type { Handlers } from '../../../src/agent/commands/registry';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { LINK_ERROR_CODES } from '../../../src/protocol';

type Ctx = { calls: string[] };

/** Every handler records its call; some misbehave on purpose. */
const handlers = new Proxy({} as Handlers<Ctx>, {
  get: (_t, process: string) => async (payload: unknown, ctx: Ctx) => {
    ctx.calls.push(process);
    if (process === 'jtop-health') throw new Error('sensor exploded');
    if (process === 'get-usages') throw new CommandError(LINK_ERROR_CODES.busy, 'Busy measuring');
    if (process === 'ping') return { pong: true, time: 1 };
    return { echoed: payload };
  },
});

const run = (raw: unknown, ctx: Ctx = { calls: [] }) => dispatchRequest(raw, handlers, ctx, silentLogger);
const request = (process: string, payload?: unknown, requestId = 'r1') => ({
  type: 'request',
  process,
  requestId,
  payload,
});

describe('dispatchRequest', () => {
  it('answers a valid request with the handler data', async () => {
    await expect(run(request('ping', {}))).resolves.toEqual({
      type: 'reply',
      process: 'ping',
      requestId: 'r1',
      ok: true,
      data: { pong: true, time: 1 },
    });
  });

  it('treats a missing payload as an empty object', async () => {
    const reply = await run(request('ping'));
    expect(reply.ok).toBe(true);
  });

  it('hands the handler the payload parsed by the request schema', async () => {
    const reply = await run(request('get-supported-resolutions', { camera_id: 'cam-1' }));
    expect(reply).toMatchObject({ ok: true, data: { echoed: { camera_id: 'cam-1' } } });
  });

  it('answers an unknown process with unknown_process', async () => {
    const ctx = { calls: [] };
    const reply = await run(request('format-disk', {}, 'r9'), ctx);
    expect(reply).toMatchObject({
      ok: false,
      process: 'format-disk',
      requestId: 'r9',
      error: { code: 'unknown_process' },
    });
    expect(ctx.calls).toEqual([]);
  });

  it('answers a string that is not JSON with malformed_message', async () => {
    const reply = await run('{not json');
    expect(reply).toMatchObject({ type: 'reply', ok: false, error: { code: 'malformed_message' } });
  });

  it('accepts a request sent as a JSON string', async () => {
    const reply = await run(JSON.stringify(request('ping', {})));
    expect(reply.ok).toBe(true);
  });

  it.each([null, 42, 'just text', [1, 2], true])(
    'answers the non-object %j with malformed_message',
    async (raw) => {
      const reply = await run(raw);
      expect(reply).toMatchObject({ ok: false, requestId: '', error: { code: 'malformed_message' } });
    },
  );

  it('answers a request without requestId with malformed_message naming the process', async () => {
    const reply = await run({ type: 'request', process: 'ping', payload: {} });
    expect(reply).toMatchObject({
      ok: false,
      process: 'ping',
      requestId: '',
      error: { code: 'malformed_message' },
    });
  });

  it('answers a message of another type with malformed_message and keeps its requestId', async () => {
    const reply = await run({ type: 'hello', grant: 'x', requestId: 'r5' });
    expect(reply).toMatchObject({ ok: false, requestId: 'r5', error: { code: 'malformed_message' } });
  });

  it('answers a payload that fails the request schema with invalid_payload', async () => {
    const ctx = { calls: [] };
    const reply = await run(
      request('send-sdp', { camera_id: 'cam-1', callId: 'c1', sdp: { type: 'answer', sdp: 'x' } }),
      ctx,
    );
    expect(reply).toMatchObject({
      ok: false,
      process: 'send-sdp',
      requestId: 'r1',
      error: { code: 'invalid_payload' },
    });
    expect(reply.ok === false && reply.error.message).toMatch(/sdp/);
    expect(ctx.calls).toEqual([]);
  });

  it('answers extra fields on a strict empty payload with invalid_payload', async () => {
    const reply = await run(request('ping', { extra: 1 }));
    expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
  });

  it('answers a NUL or an unpaired surrogate in any payload string with invalid_payload, before the handler', async () => {
    const ctx = { calls: [] };
    for (const camera_id of ['cam\u0000', '\ud800']) {
      const reply = await run(request('check-camera-usage', { camera_id }), ctx);
      expect(reply).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
      expect(reply.ok === false && reply.error.message).toMatch(/payload\.camera_id/);
    }
    expect(ctx.calls).toEqual([]);
  });

  it('answers a handler that throws with internal_error and does not throw itself', async () => {
    const reply = await run(request('jtop-health', {}));
    expect(reply).toMatchObject({ ok: false, process: 'jtop-health', error: { code: 'internal_error' } });
    expect(reply.ok === false && reply.error.message).toContain('sensor exploded');
  });

  it('passes the code of a CommandError through', async () => {
    const reply = await run(request('get-usages', {}));
    expect(reply).toMatchObject({ ok: false, error: { code: 'busy', message: 'Busy measuring' } });
  });

  it('always produces a reply the link schema accepts', async () => {
    const { ReplyMessage } = await import('../../../src/protocol');
    for (const raw of [null, '{', request('nope'), request('ping'), request('jtop-health')]) {
      expect(ReplyMessage.safeParse(await run(raw)).success).toBe(true);
    }
  });
});
