/**
 * The applications screen's pure views (src/console/features/applications/selectors.ts): list rows (input
 * size, all classes), the §3 loading / lastUpdate facts, the form's options from the features list (trackers
 * only for tasks with detections) and selectedModelInfo; the six languages carry every English key.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { applicationFormMachine } from '../../../machines/applications/applicationForm.machine';
import { applicationsMachine } from '../../../machines/applications/applications.machine';
import { ch } from '../../../src/console/features/applications/languages/ch';
import { de } from '../../../src/console/features/applications/languages/de';
import { en } from '../../../src/console/features/applications/languages/en';
import { es } from '../../../src/console/features/applications/languages/es';
import { fr } from '../../../src/console/features/applications/languages/fr';
import { jp } from '../../../src/console/features/applications/languages/jp';
import {
  applicationFormToView,
  applicationsToView,
  rowOf,
} from '../../../src/console/features/applications/selectors';
import { FEATURES } from '../../../src/server/routes/applications';
import { sampleApplication } from '../../model/applications/fixtures';

const tick = () => new Promise((r) => setImmediate(r));

describe('applications views', () => {
  it('maps rows and the §3 loading and lastUpdate facts', async () => {
    expect(rowOf(sampleApplication)).toMatchObject({ size: null, classes: ['person'], fps: 25, version: 1 });
    expect(
      rowOf({
        ...sampleApplication,
        classes: [],
        input: { source: 'rtsp', width: 1280, height: 720, fps: 10 },
      }),
    ).toMatchObject({ size: '1280×720', classes: null, source: 'rtsp' });
    const actor = createActor(
      applicationsMachine.provide({
        actors: {
          loadApplications: fromPromise(async () => ({
            app: [sampleApplication],
            page_info: { page: 1, per_page: 1, total_items: 1, pages: 1 },
            features: [...FEATURES],
          })),
        },
      }),
    ).start();
    actor.send({ type: 'applications.load' });
    expect(applicationsToView(actor.getSnapshot())).toMatchObject({
      state: 'loading',
      loading: true,
      lastUpdate: null,
    });
    await tick();
    const v = applicationsToView(actor.getSnapshot());
    expect(v).toMatchObject({ state: 'ready', loading: false, total: 1 });
    expect(v.lastUpdate).toBeGreaterThan(0);
  });

  it('offers trackers by the chosen model’s task and shows selectedModelInfo', async () => {
    const version = {
      id: 'v1',
      model_id: 'P',
      version: 1,
      file_name: 'f',
      size: 1,
      sha256: '',
      notes: '',
      uploaded_by: null,
      created_at: '',
    };
    const base = {
      id: 'P000000000B2',
      name: 'llm',
      task: 'llm' as const,
      format: 'gguf' as const,
      classes: [],
      input_width: null,
      input_height: null,
      description: '',
      versions: 1,
      latest: version,
      size: 1,
      created_at: '',
      updated_at: '',
      version_list: [version],
      deployments: [],
    };
    const form = (detail: typeof base | (Omit<typeof base, 'task'> & { task: 'object-detection' })) =>
      createActor(
        applicationFormMachine.provide({
          actors: {
            loadModels: fromPromise(async () => [detail]) as never,
            loadModel: fromPromise(async () => detail) as never,
          },
        }),
        { input: { application: null } },
      ).start();
    const llm = form(base);
    await tick();
    llm.send({ type: 'form.model', modelId: base.id });
    await tick();
    const lv = applicationFormToView(llm.getSnapshot(), FEATURES);
    expect(lv.trackers).toEqual(['none']);
    expect(lv.sources).toEqual(['camera', 'ip-camera', 'video-file', 'rtsp']);
    expect(lv.info).toEqual({ task: 'llm', classes: [], inputSize: null });
    const det = form({
      ...base,
      task: 'object-detection',
      classes: ['person'],
      input_width: 640,
      input_height: 480,
    } as never);
    await tick();
    det.send({ type: 'form.model', modelId: base.id });
    await tick();
    const dv = applicationFormToView(det.getSnapshot(), FEATURES);
    expect(dv.trackers).toEqual(['none', 'iou', 'sort', 'deepsort', 'bytetrack', 'nvdcf']);
    expect(dv.info).toEqual({ task: 'object-detection', classes: ['person'], inputSize: '640×480' });
    expect(dv.versions).toEqual([{ id: 'v1', version: 1 }]);
  });

  it('has every English key in the five other languages', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v as object, `${p}${k}.`) : [`${p}${k}`],
      );
    for (const lang of [ch, es, jp, de, fr]) expect(keys(lang).sort()).toEqual(keys(en).sort());
  });
});
