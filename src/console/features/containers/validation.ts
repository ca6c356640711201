/**
 * The admin catalogue form (§2 /admin-panel/dockers): form values ↔ the contract's EnvironmentInput. The
 * form is checked with the contract's own zod schema, so the messages shown inline are the contract's
 * (e.g. 'Use lower-case letters, digits and "-"', 'Not a Docker tag'). Loaded with the admin screen only.
 */
import {
  EnvironmentInput,
  type Environment,
  type EnvironmentInput as EnvironmentInputType,
  type EnvPlatform,
} from '../../../protocol/containers';

/** One tag row of the form; size as typed (MB). */
export interface TagFormValues {
  tag: string;
  platform: EnvPlatform;
  sizeMb: string;
}

/** What the form holds: strings as typed, booleans as ticked. */
export interface EnvironmentFormValues {
  alias: string;
  name: string;
  description: string;
  image: string;
  jupyter: boolean;
  jupyterPort: string;
  gpu: boolean;
  public: boolean;
  tags: TagFormValues[];
}

/** Field path → message, e.g. 'alias', 'tags', 'tags.0.tag', 'jupyterPort'. */
export type FormErrors = Record<string, string>;

export function emptyForm(): EnvironmentFormValues {
  return {
    alias: '',
    name: '',
    description: '',
    image: '',
    jupyter: false,
    jupyterPort: '8888',
    gpu: true,
    public: true,
    tags: [{ tag: 'latest', platform: 'any', sizeMb: '0' }],
  };
}

export function formFromEnvironment(e: Environment): EnvironmentFormValues {
  return {
    alias: e.alias,
    name: e.name,
    description: e.description,
    image: e.image,
    jupyter: e.jupyter,
    jupyterPort: String(e.jupyter_port),
    gpu: e.gpu,
    public: e.public,
    tags: e.tags.map((t) => ({ tag: t.tag, platform: t.platform, sizeMb: String(t.size_mb) })),
  };
}

/** A number as typed: NaN for text that is not one (the schema then names the field). */
const toNumber = (s: string): number => (s.trim() === '' ? Number.NaN : Number(s));

/** The typed port when it is one (1–65535), else `fallback`. */
function validPortOr(s: string, fallback: number): number {
  const n = toNumber(s);
  return Number.isInteger(n) && n >= 1 && n <= 65_535 ? n : fallback;
}

/** The form field a schema path names ('jupyter_port' → 'jupyterPort', 'tags.0.size_mb' → 'tags.0.sizeMb'). */
function fieldOf(path: readonly PropertyKey[]): string {
  const names: Record<string, string> = { jupyter_port: 'jupyterPort', size_mb: 'sizeMb' };
  return path.map((p) => names[String(p)] ?? String(p)).join('.') || 'form';
}

/**
 * Checks the form with the contract's EnvironmentInput: `{ ok: true, input }` ready to send, or
 * `{ ok: false, errors }` with the first message per field.
 */
export function validateEnvironmentForm(
  values: EnvironmentFormValues,
): { ok: true; input: EnvironmentInputType } | { ok: false; errors: FormErrors } {
  const candidate = {
    alias: values.alias.trim(),
    name: values.name,
    description: values.description,
    image: values.image.trim(),
    tags: values.tags.map((t) => ({ tag: t.tag.trim(), platform: t.platform, size_mb: toNumber(t.sizeMb) })),
    jupyter: values.jupyter,
    // The port is asked for only with Jupyter; without it a port that does not parse keeps the default.
    jupyter_port: values.jupyter ? toNumber(values.jupyterPort) : validPortOr(values.jupyterPort, 8888),
    gpu: values.gpu,
    public: values.public,
  };
  const parsed = EnvironmentInput.safeParse(candidate);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
