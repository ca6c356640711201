/**
 * The fuzz generator itself: for every schema of the REST route table and the device-command registry it
 * yields baselines the schema accepts, and its mutations marked 'invalid' are refused by the schema ('valid'
 * ones accepted) — so the harness sends what it claims to send.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceCommands } from '../../src/protocol/commands';
import { restRoutes } from '../../src/protocol/routes';
import {
  baseline,
  jsonSchemaOf,
  mutate,
  mutateText,
  MUTATION_KINDS,
  textBaseline,
  type Mutant,
} from './generate';
import { Rng } from './random';
import { landedRoute } from './rest';

const bodySchemas: [string, z.ZodType][] = [
  ...Object.entries(restRoutes).flatMap(([name, r]) =>
    'body' in r && r.body ? [[`${name} body`, r.body] as [string, z.ZodType]] : [],
  ),
  ...Object.entries(deviceCommands).map(([p, c]) => [`${p} request`, c.request] as [string, z.ZodType]),
];
const textSchemas: [string, z.ZodType, boolean][] = Object.entries(restRoutes).flatMap(([name, r]) => [
  ...('query' in r && r.query ? [[`${name} query`, r.query, false] as [string, z.ZodType, boolean]] : []),
  ...('params' in r && r.params ? [[`${name} params`, r.params, true] as [string, z.ZodType, boolean]] : []),
]);

const judge = (schema: z.ZodType, m: Mutant) => {
  // What a JSON boundary hands the schema: the value after a JSON round trip.
  const text = JSON.stringify(m.value);
  const parsed = schema.safeParse(text === undefined ? undefined : JSON.parse(text));
  return parsed.success;
};

describe('fuzz generator', () => {
  it('covers every route body and command request', () => {
    expect(bodySchemas.length).toBeGreaterThanOrEqual(Object.keys(deviceCommands).length + 5);
    expect(textSchemas.length).toBeGreaterThanOrEqual(5);
  });

  it.each(bodySchemas)('%s: baselines are accepted by the schema', (_name, schema) => {
    const rng = new Rng(1);
    for (let i = 0; i < 50; i++) {
      const b = baseline(schema, rng, { camera_id: ['cam-1'] });
      expect(b.valid, JSON.stringify(b.value)).toBe(true);
      expect(schema.safeParse(JSON.parse(JSON.stringify(b.value))).success).toBe(true);
    }
  });

  it.each(textSchemas)('%s: text baselines are accepted by the schema', (_name, schema) => {
    const rng = new Rng(2);
    for (let i = 0; i < 50; i++) {
      const b = textBaseline(schema, rng);
      expect(b.valid, JSON.stringify(b.value)).toBe(true);
      expect(schema.safeParse(b.value).success).toBe(true);
    }
  });

  it.each(bodySchemas)('%s: mutations keep their word', (_name, schema) => {
    const rng = new Rng(3);
    const json = jsonSchemaOf(schema);
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const base = baseline(schema, rng, {}, json).value;
      const kind = MUTATION_KINDS[i % MUTATION_KINDS.length];
      const m = mutate(schema, base, rng, kind, json);
      if (!m) continue;
      seen.add(m.label.split(/[:@]/)[0]!);
      if (m.expect === 'any') continue;
      expect(judge(schema, m), `${m.label}: ${JSON.stringify(m.value)?.slice(0, 300)}`).toBe(
        m.expect === 'valid',
      );
    }
    // Every schema is at least refused as the wrong type at its root.
    expect(seen.has('root-type') || seen.has('wrong-type')).toBe(true);
  });

  it.each(textSchemas)('%s: text mutations keep their word', (_name, schema, pathParams) => {
    const rng = new Rng(4);
    for (let i = 0; i < 300; i++) {
      const m = mutateText(schema, textBaseline(schema, rng).value, rng, pathParams);
      if (m.expect === 'any') continue;
      expect(schema.safeParse(m.value).success, `${m.label}: ${JSON.stringify(m.value).slice(0, 300)}`).toBe(
        m.expect === 'valid',
      );
    }
  });

  it('refuses the obvious: a dropped required field, a wrong type, an oversized string', () => {
    const schema = deviceCommands['send-sdp'].request;
    const base = baseline(schema, new Rng(5)).value as Record<string, unknown>;
    expect(schema.safeParse(base).success).toBe(true);
    const rng = new Rng(6);
    for (const kind of ['drop-required', 'wrong-type', 'null', 'root-type', 'numeric-string']) {
      const m = mutate(schema, base, rng, kind)!;
      expect(m.expect).toBe('invalid');
      expect(judge(schema, m)).toBe(false);
    }
    // Strict payloads (Empty) refuse an extra field.
    const ping = deviceCommands.ping.request;
    const extra = mutate(ping, {}, rng, 'extra-field')!;
    expect(extra.expect).toBe('invalid');
    expect(judge(ping, extra)).toBe(false);
  });

  it('is reproducible: the same seed yields the same cases', () => {
    const schema = restRoutes['layout.put'].body;
    const run = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 20 }, () => {
        const m = mutate(schema, baseline(schema, rng).value, rng);
        return `${m?.label} ${JSON.stringify(m?.value)?.slice(0, 200)}`;
      });
    };
    expect(run(42)).toEqual(run(42));
    expect(run(42)).not.toEqual(run(43));
  });
});

describe('landedRoute (which route a fuzz case reaches)', () => {
  it('lands an empty path parameter on its neighbour, as the router does', () => {
    expect(landedRoute('GET', '/api/environments/')).toBe(restRoutes['containers.environments']);
    expect(landedRoute('GET', '/api/environments/pytorch?x=1')).toBe(restRoutes['containers.environment']);
  });
  it('keeps the case route when nothing of the method matches', () => {
    expect(landedRoute('GET', '/api/environments/a/b/c')).toBeNull();
    expect(landedRoute('PATCH', '/api/environments')).toBeNull();
  });
});
