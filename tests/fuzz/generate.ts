/**
 * Inputs generated from zod schemas (the REST route table and the device-command registry): a valid baseline
 * value per schema, then one hostile mutation of it. The schema is read through `z.toJSONSchema` (input side),
 * so a route or command added later is covered without touching the harness.
 *
 * Every mutation says what the schema should make of it: 'invalid' (the schema must refuse it), 'valid' (the
 * schema must accept it) or 'any' (it depends: unicode, prototype keys, … — the boundary judges). The unit
 * test (generate.test.ts) holds the generator to that.
 */
import type { z } from 'zod';
import type { Rng } from './random';
import {
  jsonSchemaOf,
  resolve,
  acceptedTypes,
  type JsonSchema,
  type Fixtures,
  type Mutant,
  type Root,
} from './schema';
import { HOSTILE_STRINGS, hugeString } from './hostile';

export * from './schema';
export * from './hostile';
export * from './mutate';

// ---------------------------------------------------------------------------------------------------------
// Baselines

interface Ctx {
  rng: Rng;
  root: Root;
  fixtures: Fixtures;
  depth: number;
}

function stringBaseline(node: JsonSchema, name: string | undefined, ctx: Ctx): string {
  const { rng } = ctx;
  const fixture = name !== undefined ? ctx.fixtures[name] : undefined;
  if (fixture?.length && rng.chance(0.75)) return rng.pick(fixture);
  const min = node.minLength ?? 1;
  const max = Math.max(min, Math.min(node.maxLength ?? 16, 16));
  const plain = () => rng.string(rng.int(Math.max(min, 1), Math.max(max, 1)));
  switch (node.format) {
    case 'email':
      return `fuzz.${rng.string(6)}@example.com`;
    case 'uuid':
    case 'guid':
      return `${rng.string(8, '0123456789abcdef')}-${rng.string(4, '0123456789abcdef')}-4${rng.string(3, '0123456789abcdef')}-8${rng.string(3, '0123456789abcdef')}-${rng.string(12, '0123456789abcdef')}`;
    case 'uri':
    case 'url':
      return `https://example.com/${rng.string(6)}`;
    case 'date-time':
      return new Date(1_700_000_000_000 + rng.int(0, 1e9)).toISOString();
    case 'date':
      return '2026-01-02';
    case 'ipv4':
      return '127.0.0.1';
  }
  const examples = (node.examples ?? []).filter((e): e is string => typeof e === 'string');
  // A schema checked by code (zod refine) has no pattern: its own examples are the valid values.
  if (!node.pattern && examples.length) return rng.pick(examples);
  if (node.pattern) {
    const re = new RegExp(node.pattern, 'u');
    const tries = [
      ...(examples.length ? [rng.pick(examples), ...examples] : []),
      plain(),
      rng.string(12, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'),
      `fuzz_${rng.string(8)}`,
      rng.string(Math.max(min, 8), '0123456789'),
      rng.string(Math.max(min, 8)),
    ];
    return tries.find((t) => re.test(t)) ?? tries[0]!;
  }
  return plain();
}

function numberBaseline(node: JsonSchema, integer: boolean, ctx: Ctx): number {
  const lo =
    node.minimum ?? (node.exclusiveMinimum !== undefined ? node.exclusiveMinimum + (integer ? 1 : 0.5) : 0);
  const hi =
    node.maximum ??
    (node.exclusiveMaximum !== undefined ? node.exclusiveMaximum - (integer ? 1 : 0.5) : lo + 100);
  const top = Math.min(hi, lo + 1000);
  if (integer) return ctx.rng.int(Math.ceil(lo), Math.floor(top));
  return Math.round((lo + ctx.rng.next() * (top - lo)) * 100) / 100 || (top > 0 ? top : lo);
}

function baselineOf(node: JsonSchema, name: string | undefined, ctx: Ctx): unknown {
  const n = resolve(node, ctx.root);
  if (n.const !== undefined) return n.const;
  if (n.enum) return ctx.rng.pick(n.enum);
  const alts = n.anyOf ?? n.oneOf;
  if (alts) {
    const nonNull = alts.filter((a) => resolve(a, ctx.root).type !== 'null');
    return baselineOf(ctx.rng.pick(nonNull.length ? nonNull : alts), name, ctx);
  }
  if (n.allOf?.length) return baselineOf(n.allOf[0]!, name, ctx);
  const type = Array.isArray(n.type) ? (n.type.find((t) => t !== 'null') ?? n.type[0]) : n.type;
  switch (type) {
    case 'string':
      return stringBaseline(n, name, ctx);
    case 'integer':
      return numberBaseline(n, true, ctx);
    case 'number':
      return numberBaseline(n, false, ctx);
    case 'boolean':
      return ctx.rng.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const min = n.minItems ?? 0;
      const max = ctx.depth > 4 ? min : Math.min(n.maxItems ?? 3, Math.max(min, 3));
      const length = ctx.rng.int(min, Math.max(min, max));
      const inner = { ...ctx, depth: ctx.depth + 1 };
      if (n.prefixItems) return n.prefixItems.map((p) => baselineOf(p, undefined, inner));
      return Array.from({ length }, () => baselineOf(n.items ?? {}, name, inner));
    }
    case 'object': {
      // An object checked by code (zod refine across fields) gives its valid shapes as examples.
      if (n.examples?.length) return structuredClone(ctx.rng.pick(n.examples));
      const out: Record<string, unknown> = {};
      const required = new Set(n.required ?? []);
      const inner = { ...ctx, depth: ctx.depth + 1 };
      for (const [key, prop] of Object.entries(n.properties ?? {})) {
        if (required.has(key) || (ctx.depth < 4 && ctx.rng.chance(0.5))) {
          out[key] = baselineOf(prop, key, inner);
        }
      }
      if (typeof n.additionalProperties === 'object' && ctx.rng.chance(0.5)) {
        out[`k${ctx.rng.string(4)}`] = baselineOf(n.additionalProperties, undefined, inner);
      }
      return out;
    }
    default:
      // unknown / any
      return ctx.rng.pick<unknown>(['x', 1, true, null, {}]);
  }
}

/** Result of `baseline`: a value, and whether the schema accepts it (it should, always). */
export interface Baseline {
  value: unknown;
  valid: boolean;
}

/**
 * A value the schema accepts, with fixture values for named string fields where they fit. Tries several
 * draws; `valid` is false only when none passed (a schema the generator cannot satisfy: the unit test
 * fails for it).
 */
export function baseline(
  schema: z.ZodType,
  rng: Rng,
  fixtures: Fixtures = {},
  json: JsonSchema = jsonSchemaOf(schema),
  check: (value: unknown) => boolean = (v) => schema.safeParse(v).success,
): Baseline {
  let value: unknown;
  for (let attempt = 0; attempt < 40; attempt++) {
    value = baselineOf(json, undefined, {
      rng,
      root: json,
      fixtures: attempt < 20 ? fixtures : {},
      depth: 0,
    });
    if (check(value)) return { value, valid: true };
  }
  return { value, valid: false };
}

/** A value as text for a query string: strings as they are, numbers and booleans printed, others JSON. */
export function queryText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? '';
}

// ---------------------------------------------------------------------------------------------------------
// Query strings and path parameters (text only: every value arrives as a string, repeated keys as arrays)

/** A query or path-parameter record as a server parses it. */
export type TextRecord = Record<string, string | string[]>;

/** An object value as text (top-level fields printed, undefined left out). */
export function toTextRecord(value: unknown): TextRecord {
  const out: TextRecord = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map(queryText) : queryText(v);
  }
  return out;
}

/** A valid query (or params) record for `schema`: a baseline whose text form the schema accepts. */
export function textBaseline(
  schema: z.ZodType,
  rng: Rng,
  fixtures: Fixtures = {},
): { value: TextRecord; valid: boolean } {
  const json = jsonSchemaOf(schema);
  const b = baseline(schema, rng, fixtures, json, (v) => schema.safeParse(toTextRecord(v)).success);
  return { value: toTextRecord(b.value), valid: b.valid };
}

/** Text values at the edges of what a query or path segment may hold. */
export const HOSTILE_TEXT: readonly string[] = [
  ...HOSTILE_STRINGS,
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1.5',
  '0x10',
  '1e999',
  '9007199254740993',
  '-9007199254740993',
  '00000000000000000000000000000001',
  '[object Object]',
];

/** One mutation of a text record (query or params); `pathParams` limits it to what a URL path can carry. */
/** A mutated text record. */
export type TextMutant = Mutant & { value: TextRecord };

export function mutateText(schema: z.ZodType, base: TextRecord, rng: Rng, pathParams = false): TextMutant {
  const json = resolve(jsonSchemaOf(schema), {});
  const props = json.properties ?? {};
  const keys = Object.keys(props);
  const required = new Set(json.required ?? []);
  const value: TextRecord = { ...base };
  const kinds = pathParams
    ? ['hostile-value', 'long-value']
    : [
        'drop-required',
        'unknown-key',
        'repeated-key',
        'hostile-value',
        'long-value',
        'enum-variant',
        'empty',
      ];
  const kind = rng.pick(kinds);
  const key = keys.length ? rng.pick(keys) : 'q';
  const node = props[key] ?? {};
  switch (kind) {
    case 'drop-required': {
      const req = keys.filter((k) => required.has(k));
      if (!req.length) break;
      const k = rng.pick(req);
      delete value[k];
      return { value, label: `query-drop-required@${k}`, expect: 'invalid' };
    }
    case 'unknown-key': {
      const k = rng.pick(['__proto__', 'constructor', 'a[b]', 'x'.repeat(300), 'isAdmin', '', '\u0000']);
      if (k in props) break;
      value[k] = rng.pick(HOSTILE_TEXT);
      return { value, label: `query-unknown-key:${JSON.stringify(k.slice(0, 20))}`, expect: 'any' };
    }
    case 'repeated-key': {
      const first = value[key] ?? 'a';
      value[key] = [...(Array.isArray(first) ? first : [first]), rng.pick(HOSTILE_TEXT)];
      const accepts = acceptedTypes(node, json).has('array');
      return { value, label: `query-repeated-key@${key}`, expect: accepts ? 'any' : 'invalid' };
    }
    case 'empty': {
      value[key] = '';
      return { value, label: `query-empty@${key}`, expect: 'any' };
    }
    case 'enum-variant': {
      const r = resolve(node, json);
      if (!r.enum) break;
      const v = String(rng.pick(r.enum)).toUpperCase() + 'X';
      value[key] = v;
      return { value, label: `query-enum-variant:${v}@${key}`, expect: 'invalid' };
    }
    case 'long-value': {
      const n = rng.pick([201, 4097, 12_000]);
      value[key] = hugeString(n, rng.pick(['a', '.', '/', '%']));
      const max = resolve(node, json).maxLength;
      return {
        value,
        label: `text-long:${n}@${key}`,
        expect: max !== undefined && n > max ? 'invalid' : 'any',
      };
    }
  }
  const v = rng.pick(HOSTILE_TEXT);
  value[key] = v;
  return { value, label: `text-hostile:${JSON.stringify(v).slice(0, 40)}@${key}`, expect: 'any' };
}
