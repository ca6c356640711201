/**
 * One hostile mutation of a valid value (generate.ts baselines), chosen among the kinds that fit the schema
 * there; each says what the schema should make of it ('invalid', 'valid' or 'any').
 */
import type { z } from 'zod';
import type { Rng } from './random';
import {
  jsonSchemaOf,
  resolve,
  branches,
  ALL_TYPES,
  acceptedTypes,
  jsTypeOf,
  branchFor,
  type JsonSchema,
  type Mutant,
  type Root,
  type JsType,
} from './schema';
import {
  BOUNDARY_NUMBERS,
  deepArray,
  HOSTILE_STRINGS,
  hugeString,
  ONE_MB,
  PROTO_KEYS,
  withOwnKey,
} from './hostile';

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
