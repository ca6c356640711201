import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import {
  emptyForm,
  formFromEnvironment,
  validateEnvironmentForm,
  type EnvironmentFormValues,
} from '../../../src/console/features/containers/validation';
import { en, registerContainersTexts } from '../../../src/console/features/containers/i18n';
import type { Environment } from '../../../src/protocol/containers';

const valid: EnvironmentFormValues = {
  ...emptyForm(),
  alias: 'pytorch-lab',
  name: 'PyTorch lab',
  image: 'nvcr.io/nvidia/l4t-pytorch',
  tags: [{ tag: 'r35.2.1', platform: 'jetson', sizeMb: '4200' }],
};

describe('admin catalogue form (§2 /admin-panel/dockers, contract EnvironmentInput)', () => {
  it('turns a valid form into the EnvironmentInput the server takes', () => {
    const checked = validateEnvironmentForm({ ...valid, jupyter: true, jupyterPort: '8890' });
    expect(checked).toEqual({
      ok: true,
      input: {
        alias: 'pytorch-lab',
        name: 'PyTorch lab',
        description: '',
        image: 'nvcr.io/nvidia/l4t-pytorch',
        tags: [{ tag: 'r35.2.1', platform: 'jetson', size_mb: 4200 }],
        jupyter: true,
        jupyter_port: 8890,
        gpu: true,
        public: true,
      },
    });
  });

  it('names each wrong field with the contract’s message', () => {
    const checked = validateEnvironmentForm({
      ...valid,
      alias: 'PyTorch Lab',
      name: '  ',
      image: 'Not An Image',
      tags: [{ tag: '-bad', platform: 'any', sizeMb: 'lots' }],
      jupyter: true,
      jupyterPort: '70000',
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.alias).toBe('Use lower-case letters, digits and "-"');
    expect(checked.errors.image).toBe('Not a Docker image name');
    expect(checked.errors['tags.0.tag']).toBe('Not a Docker tag');
    expect(Object.keys(checked.errors).sort()).toEqual(
      ['alias', 'image', 'jupyterPort', 'name', 'tags.0.sizeMb', 'tags.0.tag'].sort(),
    );
  });

  it('needs at least one tag', () => {
    const checked = validateEnvironmentForm({ ...valid, tags: [] });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.errors)).toEqual(['tags']);
  });

  it('ignores a wrong Jupyter port when the image serves no Jupyter', () => {
    const checked = validateEnvironmentForm({ ...valid, jupyter: false, jupyterPort: 'x' });
    expect(checked.ok && checked.input.jupyter_port).toBe(8888);
  });

  it('fills the form from an entry and gives the same entry back', () => {
    const env: Environment = {
      id: 'e1',
      alias: 'yolo',
      name: 'YOLO',
      description: 'Detection',
      image: 'ultralytics/ultralytics',
      tags: [{ tag: 'latest', platform: 'any', size_mb: 900 }],
      jupyter: false,
      jupyter_port: 8888,
      gpu: false,
      public: false,
      created_at: '',
      updated_at: '',
    };
    const checked = validateEnvironmentForm(formFromEnvironment(env));
    const { id: _id, created_at: _c, updated_at: _u, ...input } = env;
    expect(checked).toEqual({ ok: true, input });
  });
});

describe('containers texts (§2 six languages)', () => {
  it('registers every text in all six languages, §8 texts in English as the spec words them', async () => {
    // The console's i18next (src/console/i18n), as the feature registers its texts into it at load.
    await new Promise<void>((resolve) => {
      if (i18n.isInitialized) resolve();
      else i18n.on('initialized', () => resolve());
    });
    registerContainersTexts(); // idempotent: already registered at import
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'string' ? [prefix + k] : keys(v as object, `${prefix}${k}.`),
      );
    for (const lang of ['en', 'ch', 'es', 'jp', 'de', 'fr']) {
      for (const key of keys(en)) {
        expect(i18n.getResource(lang, 'translation', `containers.${key}`), `${lang} ${key}`).toEqual(
          expect.any(String),
        );
      }
    }
    expect(i18n.getFixedT('en')('containers.texts.ongoingProcess')).toBe('Ongoing Process');
    expect(i18n.getFixedT('de')('containers.title')).toBe('Container');
  });
});
