/**
 * The fuzz harness's view of a zod schema: the JSON Schema subset z.toJSONSchema emits (input side), and the
 * helpers that read it (refs, union branches, accepted JSON types). Shared by the baselines (generate.ts)
 * and the mutations (mutate.ts).
 */
import { z } from 'zod';

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
// Schema reading

export type Root = JsonSchema;

/** Resolves `$ref` (only local '#' and '#/$defs/…' refs occur). */
export function resolve(node: JsonSchema, root: Root): JsonSchema {
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
export function branches(node: JsonSchema, root: Root): JsonSchema[] {
  const n = resolve(node, root);
  const alts = n.anyOf ?? n.oneOf;
  if (alts) return alts.flatMap((b) => branches(b, root));
  if (Array.isArray(n.type)) return n.type.map((t) => ({ ...n, type: t }));
  return [n];
}

export type JsType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';
export const ALL_TYPES: readonly JsType[] = ['string', 'number', 'boolean', 'null', 'object', 'array'];

/** JSON types a node accepts (all of them for an unconstrained node). */
export function acceptedTypes(node: JsonSchema, root: Root): Set<JsType> {
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

export function jsTypeOf(v: unknown): JsType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'object' ? t : 'null';
}

/** The branch of a union node that `value` most likely took. */
export function branchFor(node: JsonSchema, value: unknown, root: Root): JsonSchema {
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
