/**
 * The models console's pure parts: the list, model page and remote-downloads views of machine snapshots, the
 * upload form's metadata (and its refusals), which route shows what, the devices a deploy can target, and the
 * protocol's §5 id prefix and format/extension rules.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { modelListMachine, type ModelQuery } from '../../../machines/models/modelList.machine';
import { remoteDownloadsMachine } from '../../../machines/models/remoteDownloads.machine';
import { screenKindOf } from '../../../src/console/features/models/screens/ModelsScreen';
import { uploadMetaOf } from '../../../src/console/features/models/screens/UploadModelDialog';
import {
  deployDevicesOf,
  formatSize,
  modelListToView,
  percentOf,
  remoteDownloadsToView,
} from '../../../src/console/features/models/selectors';
import {
  fileMatchesFormat,
  formatOfFileName,
  modelIdPrefix,
  ModelUploadTusMeta,
  type Model,
  type ModelDeployment,
} from '../../../src/protocol/models';

const form = {
  fileName: 'yolo.onnx' as string | null,
  name: ' yolo ',
  task: 'object-detection',
  format: 'onnx' as const,
  classes: 'person, car,',
  inputSize: '640x640',
  description: '',
  notes: '',
};

describe('upload form', () => {
  it('makes the tus metadata of a new model that the server parses back', () => {
    const r = uploadMetaOf(form, null);
    expect(r).toEqual({
      meta: expect.objectContaining({
        name: 'yolo',
        format: 'onnx',
        classes: '["person","car"]',
        inputSize: '640x640',
      }),
    });
    const parsed = ModelUploadTusMeta.parse('meta' in r ? r.meta : {});
    expect(parsed).toMatchObject({
      kind: 'new-model',
      classes: ['person', 'car'],
      input_width: 640,
      input_height: 640,
    });
  });

  it('refuses a missing file, a file of another format, an empty name and a bad input size', () => {
    expect(uploadMetaOf({ ...form, fileName: null }, null)).toEqual({ problem: 'fileRequired' });
    expect(uploadMetaOf({ ...form, fileName: 'yolo.pt' }, null)).toEqual({ problem: 'badExtension' });
    expect(uploadMetaOf({ ...form, name: '  ' }, null)).toEqual({ problem: 'nameRequired' });
    expect(uploadMetaOf({ ...form, inputSize: '640' }, null)).toEqual({ problem: 'badInputSize' });
  });

  it("a new version takes the model's format and only sends its id and notes", () => {
    const model = { id: 'P0123456789A', format: 'gguf' as const };
    expect(uploadMetaOf({ ...form, fileName: 'llm.gguf', notes: 'q4' }, model)).toEqual({
      meta: { modelId: 'P0123456789A', notes: 'q4' },
    });
    expect(uploadMetaOf(form, model)).toEqual({ problem: 'badExtension' });
  });
});

describe('protocol rules', () => {
  it('gives §5 prefixes: M with classes, otherwise P', () => {
    expect(modelIdPrefix(['person'])).toBe('M');
    expect(modelIdPrefix([])).toBe('P');
  });
  it('knows each format by its extensions', () => {
    expect(formatOfFileName('net.PLAN')).toBe('tensorrt');
    expect(formatOfFileName('w.safetensors')).toBe('safetensors');
    expect(formatOfFileName('notes.txt')).toBeNull();
    expect(fileMatchesFormat('a.pth', 'pytorch')).toBe(true);
    expect(fileMatchesFormat('a.onnx', 'pytorch')).toBe(false);
  });
});

describe('views', () => {
  it('the list view shows loading first, then the page with its page count', () => {
    const actor = createActor(
      modelListMachine.provide({
        actors: {
          fetchModels: fromPromise<
            { data: Model[]; page_info: { page: number; per_page: number; total_items: number } },
            ModelQuery
          >(() => new Promise(() => undefined)),
        },
      }),
    ).start();
    actor.send({ type: 'models.open', kind: 'llm' });
    const v = modelListToView(actor.getSnapshot());
    expect(v).toMatchObject({ status: 'loading', loading: true, pages: 1, query: { kind: 'llm', page: 1 } });
    actor.stop();
  });

  it('remote downloads are listed with percents and grouped per device by label', () => {
    const base: ModelDeployment = {
      id: 'a',
      device_id: 'dev-2',
      device_label: 'Zeta',
      model_id: 'M0123456789A',
      model_name: 'people',
      version_id: 'v',
      version: 1,
      file_name: 'a.onnx',
      state: 'installed',
      bytes_done: 100,
      bytes_total: 100,
      error: null,
      created_at: '',
      updated_at: '',
    };
    const actor = createActor(remoteDownloadsMachine).start();
    const snapshot = actor.getSnapshot();
    const view = remoteDownloadsToView({
      ...snapshot,
      context: {
        deployments: [
          base,
          {
            ...base,
            id: 'b',
            device_id: 'dev-1',
            device_label: 'Alpha',
            state: 'downloading',
            bytes_done: 25,
          },
        ],
        lastUpdate: 1,
        error: null,
      },
    } as typeof snapshot);
    expect(view.deployments.map((d) => d.percent)).toEqual([100, 25]);
    expect(view.devices.map((d) => [d.label, d.installed.length])).toEqual([
      ['Alpha', 0],
      ['Zeta', 1],
    ]);
    actor.stop();
  });

  it('a deploy targets connected devices only', () => {
    const conn = (label: string) => ({ getSnapshot: () => ({ context: { device: { label } } }) });
    expect(
      deployDevicesOf({
        context: {
          order: ['a', 'b'],
          status: { a: 'open', b: 'connecting' },
          connections: { a: conn('Box A'), b: conn('Box B') },
        },
      }),
    ).toEqual([{ deviceId: 'a', name: 'Box A' }]);
  });

  it('routes: /llm-models lists language models, /models-beta shows cards', () => {
    expect(screenKindOf('/llm-models')).toMatchObject({ kind: 'llm', cards: false });
    expect(screenKindOf('/models-beta')).toMatchObject({ kind: 'all', cards: true });
    expect(screenKindOf('/models')).toMatchObject({ kind: 'all', cards: false });
  });

  it('formats sizes and percents', () => {
    expect(formatSize(1_600_129)).toBe('1.5 MB');
    expect(percentOf(50, 0)).toBe(0);
    expect(percentOf(3, 4)).toBe(75);
  });
});
