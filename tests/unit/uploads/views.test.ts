/**
 * The uploads feature's pure parts: the notification's views of the uploads and upload actors (percent while
 * hashing and uploading, §3 fileId from the tus URL, the button shown while uploads run or lines remain), the
 * retry rule of the transfer (network, 5xx, tus 409/423, one Token_expired) and the user text of a failure.
 */
import { createHash } from 'node:crypto';
import { DetailedError } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import {
  uploadMachine,
  type RunUploadInput,
  type UploadEvent,
} from '../../../machines/uploads/upload.machine';
import { uploadsMachine } from '../../../machines/uploads/uploads.machine';
import {
  errorBodyOf,
  hashFileActor,
  shouldRetry,
  uploadErrorText,
} from '../../../src/console/features/uploads/actors';
import { uploadsToView, uploadToView } from '../../../src/console/features/uploads/selectors';
import { extensionOf } from '../../../src/protocol/uploads';

const machine = uploadMachine.provide({
  actors: {
    hashFile: fromCallback<UploadEvent, { id: string; file: Blob }>(() => () => undefined),
    runUpload: fromCallback<UploadEvent, RunUploadInput>(() => () => undefined),
    terminateUpload: fromPromise<void, { id: string; uploadUrl: string | null }>(async () => undefined),
  },
  actions: { tellParent: () => undefined },
});

describe('uploadToView', () => {
  it('shows the hashing share, then the uploaded share, and the tus id as fileId', () => {
    const a = createActor(machine, {
      input: {
        id: 'u',
        file: new Blob([new Uint8Array(200)]),
        fileName: 'm.onnx',
        size: 200,
        purpose: 'model',
        meta: {},
      },
    }).start();
    expect(uploadToView(a.getSnapshot())).toMatchObject({ phase: 'hashing', percent: 0, fileId: null });
    a.send({ type: 'upload.hashProgress', done: 101 });
    expect(uploadToView(a.getSnapshot()).percent).toBe(50);
    a.send({ type: 'upload.hashed', sha256: 'c'.repeat(64) });
    a.send({ type: 'upload.created', uploadUrl: '/api/uploads/0f3a9c' });
    a.send({ type: 'upload.progress', sent: 150, total: 200 });
    expect(uploadToView(a.getSnapshot())).toMatchObject({
      phase: 'uploading',
      percent: 75,
      fileId: '0f3a9c',
      fileName: 'm.onnx',
    });
    a.send({ type: 'upload.succeeded', result: { version: 2 } });
    expect(uploadToView(a.getSnapshot())).toMatchObject({
      phase: 'done',
      percent: 100,
      result: { version: 2 },
    });
  });

  it('counts an empty file as complete', () => {
    const a = createActor(machine, {
      input: {
        id: 'e',
        file: new Blob([]),
        fileName: 'e.bin',
        size: 0,
        purpose: 'p',
        meta: {},
        sha256: 'd'.repeat(64),
      },
    }).start();
    expect(uploadToView(a.getSnapshot()).percent).toBe(100);
  });
});

describe('uploadsToView', () => {
  it('is visible while uploads run or lines remain', () => {
    const a = createActor(uploadsMachine, { input: { session: 's' } }).start();
    expect(uploadsToView(a.getSnapshot()).visible).toBe(false);
    a.send({
      type: 'upload.finished',
      id: 'x',
      outcome: 'failed',
      fileName: 'x.onnx',
      purpose: 'model',
      meta: {},
      result: null,
      error: 'no',
    });
    expect(uploadsToView(a.getSnapshot())).toEqual({
      ids: [],
      results: [{ id: 'x', fileName: 'x.onnx', success: false, msg: 'x.onnx failed to upload', error: 'no' }],
      visible: true,
    });
  });
});

describe('transfer rules', () => {
  it('retries network errors, 5xx, 409/423 on an upload and one Token_expired; not other refusals', () => {
    expect(shouldRetry(0, null)).toBe(true);
    expect(shouldRetry(503, null)).toBe(true);
    expect(shouldRetry(409, 'Conflict')).toBe(true);
    expect(shouldRetry(423, null)).toBe(true);
    expect(shouldRetry(409, 'Conflict', 'POST')).toBe(false);
    expect(shouldRetry(409, 'Conflict', 'PATCH')).toBe(true);
    expect(shouldRetry(401, 'Token_expired')).toBe(true);
    expect(shouldRetry(401, 'invalid_token')).toBe(false);
    expect(shouldRetry(413, 'Payload_too_large')).toBe(false);
    expect(shouldRetry(415, 'Unsupported_media_type')).toBe(false);
    expect(shouldRetry(460, 'Checksum_mismatch')).toBe(false);
    expect(shouldRetry(404, 'Not_found')).toBe(false);
  });

  it("reads the server's { code, message }, else names the network", () => {
    const response = (status: number, body: string) => ({
      getStatus: () => status,
      getHeader: () => undefined,
      getBody: () => body,
      getUnderlyingObject: () => null,
    });
    const refused = Object.assign(new DetailedError('tus: unexpected response'), {
      originalResponse: response(
        415,
        '{"code":"Unsupported_media_type","message":"a.exe: only .onnx files are accepted."}',
      ),
    });
    expect(errorBodyOf(refused)).toEqual({
      code: 'Unsupported_media_type',
      message: 'a.exe: only .onnx files are accepted.',
    });
    expect(uploadErrorText(refused)).toBe('a.exe: only .onnx files are accepted.');
    const offline = Object.assign(new DetailedError('tus: failed to upload chunk'), {
      originalResponse: null,
    });
    expect(uploadErrorText(offline)).toBe('Servers are unavailable.');
    const plain = Object.assign(new DetailedError('x'), { originalResponse: response(500, 'Internal') });
    expect(errorBodyOf(plain)).toBeNull();
  });

  it('takes the last extension in lower case', () => {
    expect(extensionOf('Model.ONNX')).toBe('.onnx');
    expect(extensionOf('a.tar.zip')).toBe('.zip');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('noext')).toBe('');
  });
});

describe('hashFileActor', () => {
  it("streams the file's SHA-256, with progress", async () => {
    const bytes = new Uint8Array(20 * 1024 * 1024 + 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const actor = createActor(machine.provide({ actors: { hashFile: hashFileActor } }), {
      input: {
        id: 'h',
        file: new Blob([bytes]),
        fileName: 'h.bin',
        size: bytes.length,
        purpose: 'p',
        meta: {},
      },
    }).start();
    let progressed = 0;
    actor.subscribe((s) => (progressed = Math.max(progressed, s.context.hashed)));
    const s = await waitFor(actor, (x) => x.value !== 'hashing', { timeout: 20_000 });
    expect(s.value).toBe('uploading');
    expect(s.context.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(progressed).toBe(bytes.length);
  });
});
