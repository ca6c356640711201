/**
 * Inputs generated from zod schemas (the REST route table and the device-command registry): a valid baseline
 * value per schema, then one hostile mutation of it. The schema is read through `z.toJSONSchema` (input side),
 * so a route or command added later is covered without touching the harness.
 *
 * Every mutation says what the schema should make of it: 'invalid' (the schema must refuse it), 'valid' (the
 * schema must accept it) or 'any' (it depends: unicode, prototype keys, … — the boundary judges). The unit
 * test (generate.test.ts) holds the generator to that.
 */
import { z } from 'zod';
import type { Rng } from './random';

/** The subset of JSON Schema (draft 2020-12) that z.toJSONSchema emits. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  /** A schema's own examples (zod `.meta({ examples })`): valid values where a pattern is hard to guess. */
  examples?: unknown[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** The JSON Schema of what a zod schema accepts (its input side). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref' }) as JsonSchema;
}

/** Values to prefer for string fields of a given name (e.g. device_id → a real device), so cases reach handlers. */
export type Fixtures = Readonly<Record<string, readonly string[]>>;

/** What the schema should make of a mutated value. */
export type Expectation = 'valid' | 'invalid' | 'any';

/** One generated input. */
export interface Mutant {
  value: unknown;
  /** What was done, and where: 'wrong-type@streams.0.cell.x'. */
  label: string;
  expect: Expectation;
}

// ---------------------------------------------------------------------------------------------------------
// Hostile values

/** A string of `n` characters. */
export const hugeString = (n: number, ch = 'A'): string => ch.repeat(n);

/** One megabyte of text (1,000,000 characters). */
export const ONE_MB = 1_000_000;

/** Strings every text field should survive: unicode oddities, control characters, injections. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '🙂🚀👨‍👩‍👧‍👦', // emoji, ZWJ sequence
  '\u202eevil\u202c', // RTL override
  'مرحبا بالعالم', // RTL script
  'e\u0301\u0301\u0301\u0301\u0301', // combining marks
  'Z̴̡̢̛̛̛͓̠̜̩͚̱̤͚̟͔̥̖̗̘͈̝̝͇̣̠͔͙̮̝̣̱̹̗̗̺͙̪̘̖̝͓͔̰̠͎̻͎̲̜̣̦͕̮̓̄̀͑̉̾̔̿̌̊͗̓̀̏̔͆̽̓͋̐͛͊̿̀̎̑̀̚̕͘͘͜͠͠͝͠͝ͅͅ', // zalgo
  '\ud800', // lone high surrogate
  'x\udc00y', // lone low surrogate
  'a\u0000b', // NUL
  '\u0000',
  '\u200b\u200c\u200d\ufeff', // zero-width, BOM
  '\r\n\t\b\f\v',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  "' OR '1'='1'; DROP TABLE users; --",
  '"; $(reboot) `id`',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e308',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '\\u0000',
  '\uffff\ufffe',
  '𝕳𝖊𝖑𝖑𝖔',
  'İıſK', // case-folding oddities
];

/** Numbers at the edges: NaN (JSON: null), infinities, negatives, unsafe integers, tiny fractions. */
export const BOUNDARY_NUMBERS: readonly number[] = [
  NaN,
  Infinity,
  -Infinity,
  -1,
  0,
  -0,
  0.5,
  -0.000001,
  1e-300,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
];

/** Keys that try to reach a prototype. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with an own enumerable `key` (also '__proto__'), which JSON.stringify writes out. */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Nested arrays `depth` levels deep. */
export function deepArray(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

// ---------------------------------------------------------------------------------------------------------
// Schema reading

type Root = JsonSchema;

/** Resolves `$ref` (only local '#' and '#/$defs/…' refs occur). */
function resolve(node: JsonSchema, root: Root): JsonSchema {
  let n = node;
  for (let i = 0; i < 10 && n.$ref; i++) {
    const ref = n.$ref;
    if (ref === '#') n = root;
    else if (ref.startsWith('#/$defs/')) n = root.$defs?.[ref.slice('#/$defs/'.length)] ?? {};
    else return {};
  }
  return n;
}

/** The branches of a union node, or the node itself. */
function branches(node: JsonSchema, root: Root): JsonSchema[] {
  const n = resolve(node, root);
  const alts = n.anyOf ?? n.oneOf;
  if (alts) return alts.flatMap((b) => branches(b, root));
  if (Array.isArray(n.type)) return n.type.map((t) => ({ ...n, type: t }));
  return [n];
}

type JsType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';
const ALL_TYPES: readonly JsType[] = ['string', 'number', 'boolean', 'null', 'object', 'array'];

/** JSON types a node accepts (all of them for an unconstrained node). */
function acceptedTypes(node: JsonSchema, root: Root): Set<JsType> {
  const out = new Set<JsType>();
  for (const b of branches(node, root)) {
    if (b.const !== undefined) out.add(jsTypeOf(b.const));
    else if (b.enum) for (const e of b.enum) out.add(jsTypeOf(e));
    else if (typeof b.type === 'string') out.add(b.type === 'integer' ? 'number' : (b.type as JsType));
    else if (b.allOf) for (const t of ALL_TYPES) out.add(t);
    else for (const t of ALL_TYPES) out.add(t); // {} = unknown
  }
  return out;
}

function jsTypeOf(v: unknown): JsType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? t : 'null';
}

/** The branch of a union node that `value` most likely took. */
function branchFor(node: JsonSchema, value: unknown, root: Root): JsonSchema {
  const all = branches(node, root);
  const t = jsTypeOf(value);
  return (
    all.find((b) => b.const !== undefined && b.const === value) ??
    all.find((b) => b.enum?.includes(value)) ??
    all.find((b) => (b.type === 'integer' ? 'number' : b.type) === t) ??
    all.find((b) => b.type === undefined && b.const === undefined && !b.enum) ??
    all[0] ??
    {}
  );
}

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
  if (node.pattern) {
    const re = new RegExp(node.pattern, 'u');
    const examples = (node.examples ?? []).filter((e): e is string => typeof e === 'string');
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

// ---------------------------------------------------------------------------------------------------------
// Mutations

type PathSeg = string | number;

/** A place in a value: its path, the schema node there, and whether it is present. */
interface Slot {
  path: PathSeg[];
  node: JsonSchema;
  present: boolean;
  /** Property slots: whether the parent object requires it. */
  required: boolean;
  /** Property slots: the parent object's node. */
  parent?: JsonSchema;
}

function slotsOf(
  value: unknown,
  node: JsonSchema,
  root: Root,
  path: PathSeg[] = [],
  out: Slot[] = [],
): Slot[] {
  const n = branchFor(node, value, root);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      const itemNode = n.prefixItems?.[i] ?? n.items ?? {};
      out.push({ path: [...path, i], node: itemNode, present: true, required: true });
      slotsOf(item, itemNode, root, [...path, i], out);
    });
  } else if (value !== null && typeof value === 'object') {
    const required = new Set(n.required ?? []);
    for (const [key, prop] of Object.entries(n.properties ?? {})) {
      const present = Object.prototype.hasOwnProperty.call(value, key);
      out.push({ path: [...path, key], node: prop, present, required: required.has(key), parent: n });
      if (present) slotsOf((value as Record<string, unknown>)[key], prop, root, [...path, key], out);
    }
  }
  return out;
}

const clone = <T>(v: T): T => structuredClone(v);

function getAt(value: unknown, path: PathSeg[]): unknown {
  let v = value;
  for (const seg of path) v = (v as Record<PathSeg, unknown>)[seg];
  return v;
}

function setAt(root: unknown, path: PathSeg[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const parent = getAt(root, path.slice(0, -1)) as Record<PathSeg, unknown>;
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) parent[key as number] = replacement;
  else withOwnKey(parent as Record<string, unknown>, String(key), replacement);
  return root;
}

function deleteAt(root: unknown, path: PathSeg[]): unknown {
  const parent = getAt(root, path.slice(0, -1)) as Record<PathSeg, unknown>;
  delete parent[path[path.length - 1]!];
  return root;
}

const where = (path: PathSeg[]) => (path.length ? path.join('.') : '(root)');

/** A value of type `t`. */
function valueOfType(t: JsType, rng: Rng): unknown {
  switch (t) {
    case 'string':
      return rng.pick(['fuzz', '42', 'true', '']);
    case 'number':
      return rng.pick([42, -1, 0, 3.5]);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'object':
      return rng.pick([{}, { a: 1 }]);
    case 'array':
      return rng.pick([[], ['x'], [1, 2]]);
  }
}

/** Whether `v` is certainly refused by a number node (else it may pass). */
function numberRefused(node: JsonSchema, v: number): boolean {
  if (!Number.isFinite(v)) return true;
  const integer = node.type === 'integer';
  if (integer && !Number.isSafeInteger(v)) return true;
  if (node.minimum !== undefined && v < node.minimum) return true;
  if (node.maximum !== undefined && v > node.maximum) return true;
  if (node.exclusiveMinimum !== undefined && v <= node.exclusiveMinimum) return true;
  if (node.exclusiveMaximum !== undefined && v >= node.exclusiveMaximum) return true;
  return false;
}

/** Number fields of a node's branches. */
const numberBranch = (node: JsonSchema, root: Root) =>
  branches(node, root).find((b) => b.type === 'number' || b.type === 'integer');
const stringBranch = (node: JsonSchema, root: Root) => branches(node, root).find((b) => b.type === 'string');
const arrayBranch = (node: JsonSchema, root: Root) => branches(node, root).find((b) => b.type === 'array');
const objectBranch = (node: JsonSchema, root: Root) => branches(node, root).find((b) => b.type === 'object');

/** The mutation kinds, each a function that may decline (null) when the value has no fitting place. */
type Mutator = (base: unknown, json: JsonSchema, slots: Slot[], rng: Rng) => Mutant | null;

const MUTATORS: Record<string, Mutator> = {
  'drop-required': (base, _json, slots, rng) => {
    const s = slots.filter((x) => x.present && x.required && x.parent && x.node.default === undefined);
    if (!s.length) return null;
    const slot = rng.pick(s);
    return {
      value: deleteAt(clone(base), slot.path),
      label: `drop-required@${where(slot.path)}`,
      expect: 'invalid',
    };
  },
  'drop-optional': (base, _json, slots, rng) => {
    const s = slots.filter((x) => x.present && !x.required && x.parent);
    if (!s.length) return null;
    const slot = rng.pick(s);
    return {
      value: deleteAt(clone(base), slot.path),
      label: `drop-optional@${where(slot.path)}`,
      expect: 'any',
    };
  },
  'extra-field': (base, json, slots, rng) => {
    const objects: { path: PathSeg[]; node: JsonSchema }[] = [];
    if (objectBranch(json, json) && jsTypeOf(base) === 'object') objects.push({ path: [], node: json });
    for (const s of slots) {
      const o = objectBranch(s.node, json);
      if (s.present && o && jsTypeOf(getAt(base, s.path)) === 'object')
        objects.push({ path: s.path, node: o });
    }
    if (!objects.length) return null;
    const { path, node } = rng.pick(objects);
    const n = resolve(node, json);
    const key = rng.pick([
      'extra',
      'isAdmin',
      'role',
      'owner_id',
      'toString',
      'valueOf',
      `x${rng.string(5)}`,
    ]);
    if (n.properties && key in n.properties) return null;
    const value = clone(base);
    (getAt(value, path) as Record<string, unknown>)[key] = rng.pick<unknown>([
      true,
      'admin',
      1,
      null,
      {},
      [],
    ]);
    return {
      value,
      label: `extra-field:${key}@${where(path)}`,
      expect: n.additionalProperties === false ? 'invalid' : 'any',
    };
  },
  'wrong-type': (base, json, slots, rng) => {
    const candidates = [{ path: [] as PathSeg[], node: json }, ...slots.filter((s) => s.present)];
    const fitting = candidates
      .map((c) => ({ ...c, wrong: ALL_TYPES.filter((t) => !acceptedTypes(c.node, json).has(t)) }))
      .filter((c) => c.wrong.length > 0);
    if (!fitting.length) return null;
    const c = rng.pick(fitting);
    const t = rng.pick(c.wrong);
    return {
      value: setAt(clone(base), c.path, valueOfType(t, rng)),
      label: `wrong-type:${t}@${where(c.path)}`,
      expect: 'invalid',
    };
  },
  null: (base, json, slots, rng) => {
    const s = slots.filter((x) => x.present && !acceptedTypes(x.node, json).has('null'));
    if (!s.length) return null;
    const slot = rng.pick(s);
    return {
      value: setAt(clone(base), slot.path, null),
      label: `null@${where(slot.path)}`,
      expect: 'invalid',
    };
  },
  'boundary-number': (base, json, slots, rng) => {
    const s = slots.filter((x) => numberBranch(x.node, json));
    if (!s.length) return null;
    const slot = rng.pick(s);
    const nb = resolve(numberBranch(slot.node, json)!, json);
    const edges = [...BOUNDARY_NUMBERS];
    if (nb.minimum !== undefined) edges.push(nb.minimum - 1, nb.minimum);
    if (nb.maximum !== undefined) edges.push(nb.maximum + 1, nb.maximum);
    const v = rng.pick(edges);
    // NaN and the infinities become null in JSON: refused unless null is accepted.
    const refused =
      numberRefused(nb, v) && (Number.isFinite(v) || !acceptedTypes(slot.node, json).has('null'));
    return {
      value: setAt(clone(base), slot.path, v),
      label: `boundary-number:${v}@${where(slot.path)}`,
      expect: refused ? 'invalid' : 'any',
    };
  },
  'numeric-string': (base, json, slots, rng) => {
    const s = slots.filter((x) => numberBranch(x.node, json) && !acceptedTypes(x.node, json).has('string'));
    if (!s.length) return null;
    const slot = rng.pick(s);
    const v = rng.pick(['NaN', 'Infinity', '-1', '1e308', '0x10', '5', ' 5 ', '']);
    return {
      value: setAt(clone(base), slot.path, v),
      label: `numeric-string:${JSON.stringify(v)}@${where(slot.path)}`,
      expect: 'invalid',
    };
  },
  'long-string': (base, json, slots, rng) => {
    const s = slots.filter((x) => stringBranch(x.node, json));
    if (!s.length) return null;
    const slot = rng.pick(s);
    const sb = resolve(stringBranch(slot.node, json)!, json);
    const lengths = [4097, 70_000, ONE_MB];
    if (sb.maxLength !== undefined) lengths.push(sb.maxLength + 1);
    const n = rng.pick(lengths);
    const exclusive = !acceptedTypes(slot.node, json).has('object');
    return {
      value: setAt(clone(base), slot.path, hugeString(n, rng.pick(['A', 'é', '🙂']))),
      label: `long-string:${n}@${where(slot.path)}`,
      // A string longer than maxLength is refused (emoji count 2 UTF-16 units each: still longer).
      expect: sb.maxLength !== undefined && n > sb.maxLength && exclusive && !sb.pattern ? 'invalid' : 'any',
    };
  },
  'short-string': (base, json, slots, rng) => {
    const s = slots.filter((x) => {
      const b = stringBranch(x.node, json);
      return b && (resolve(b, json).minLength ?? 0) > 0 && branches(x.node, json).length === 1;
    });
    if (!s.length) return null;
    const slot = rng.pick(s);
    return {
      value: setAt(clone(base), slot.path, ''),
      label: `short-string@${where(slot.path)}`,
      expect: 'invalid',
    };
  },
  'hostile-string': (base, json, slots, rng) => {
    const s = slots.filter((x) => x.present && stringBranch(x.node, json));
    if (!s.length) return null;
    const slot = rng.pick(s);
    const v = rng.pick(HOSTILE_STRINGS);
    return {
      value: setAt(clone(base), slot.path, v),
      label: `hostile-string:${JSON.stringify(v).slice(0, 40)}@${where(slot.path)}`,
      expect: 'any',
    };
  },
  'enum-variant': (base, json, slots, rng) => {
    const s = slots.filter((x) => {
      const r = resolve(x.node, json);
      return x.present && (r.enum?.some((e) => typeof e === 'string') || typeof r.const === 'string');
    });
    if (!s.length) return null;
    const slot = rng.pick(s);
    const r = resolve(slot.node, json);
    const values = (r.enum ?? [r.const]).filter((e): e is string => typeof e === 'string');
    const v = rng.pick([
      (rng.pick(values) + 'x').toUpperCase(),
      ` ${rng.pick(values)} `,
      `${rng.pick(values)}\u0000`,
    ]);
    return {
      value: setAt(clone(base), slot.path, v),
      label: `enum-variant:${JSON.stringify(v)}@${where(slot.path)}`,
      expect: values.includes(v) ? 'valid' : 'invalid',
    };
  },
  'array-size': (base, json, slots, rng) => {
    const s = slots.filter(
      (x) => x.present && arrayBranch(x.node, json) && Array.isArray(getAt(base, x.path)),
    );
    if (!s.length) return null;
    const slot = rng.pick(s);
    const ab = resolve(arrayBranch(slot.node, json)!, json);
    const current = getAt(base, slot.path) as unknown[];
    const item = current[0] ?? 'x';
    const sizes = [0, 10_000];
    if (ab.maxItems !== undefined) sizes.push(ab.maxItems + 1);
    const n = rng.pick(sizes);
    const refused =
      (ab.maxItems !== undefined && n > ab.maxItems) || (ab.minItems !== undefined && n < ab.minItems);
    return {
      value: setAt(
        clone(base),
        slot.path,
        Array.from({ length: n }, () => clone(item)),
      ),
      label: `array-size:${n}@${where(slot.path)}`,
      expect: refused ? 'invalid' : 'any',
    };
  },
  'proto-key': (base, json, slots, rng) => {
    const objects: PathSeg[][] = jsTypeOf(base) === 'object' ? [[]] : [];
    for (const s of slots) if (s.present && jsTypeOf(getAt(base, s.path)) === 'object') objects.push(s.path);
    if (!objects.length) return null;
    const path = rng.pick(objects);
    const value = clone(base);
    const target = getAt(value, path) as Record<string, unknown>;
    const key = rng.pick(PROTO_KEYS);
    const payload =
      key === 'constructor'
        ? { prototype: { polluted: 'yes', isAdmin: true } }
        : { polluted: 'yes', isAdmin: true };
    withOwnKey(target, key, payload);
    return { value, label: `proto-key:${key}@${where(path)}`, expect: 'any' };
  },
  'deep-nesting': (base, json, slots, rng) => {
    const s = slots.filter((x) => x.present);
    const depth = rng.pick([17, 100, 1_000]);
    if (!s.length) {
      const refused = !acceptedTypes(json, json).has('array');
      return {
        value: deepArray(depth),
        label: `deep-nesting:${depth}@(root)`,
        expect: refused ? 'invalid' : 'any',
      };
    }
    const slot = rng.pick(s);
    const accepts = acceptedTypes(slot.node, json);
    return {
      value: setAt(clone(base), slot.path, deepArray(depth)),
      label: `deep-nesting:${depth}@${where(slot.path)}`,
      expect: accepts.has('array') ? 'any' : 'invalid',
    };
  },
  'root-type': (base, json, _slots, rng) => {
    const accepted = acceptedTypes(json, json);
    const wrong = ALL_TYPES.filter((t) => !accepted.has(t));
    if (!wrong.length) return null;
    const t = rng.pick(wrong);
    return { value: valueOfType(t, rng), label: `root-type:${t}`, expect: 'invalid' };
  },
};

export const MUTATION_KINDS = Object.keys(MUTATORS);

/**
 * One mutation of `base` (a valid value of `schema`), chosen at random among the kinds that fit it. `kind`
 * forces one kind (it returns null when that kind does not fit).
 */
export function mutate(
  schema: z.ZodType,
  base: unknown,
  rng: Rng,
  kind?: string,
  json: JsonSchema = jsonSchemaOf(schema),
): Mutant | null {
  const slots = slotsOf(base, json, json);
  if (kind) return MUTATORS[kind]?.(base, json, slots, rng) ?? null;
  const order = [...MUTATION_KINDS];
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (const k of order) {
    const m = MUTATORS[k]!(base, json, slots, rng);
    if (m) return m;
  }
  return null;
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
