/**
 * The environment catalogue (spec §2 /containers, /containers/{alias}, environment-detail, /admin-panel/dockers;
 * src/protocol/containers.ts) and the remote opening of a container's web app (§7 request_remote_device,
 * src/server/tunnel/remoteRoute.ts).
 *   GET    environments                → { environments: Environment[] } ordered by name
 *   GET    environments/:alias         → { environment }; 404 when missing
 *   GET    public/environments/:alias  → { environment: PublicEnvironment } (signed out); 404 when missing or
 *                                        not public
 *   POST   admin/environments          EnvironmentInput → { environment }; 409 Conflict when the alias is taken
 *   PUT    admin/environments/:id      EnvironmentInput → { environment }; 404, 409 as above
 *   DELETE admin/environments/:id      → { deleted: true }; 404
 * The catalogue is the same for every user (admins edit it); containers live on the devices.
 */
import { asc, eq } from 'drizzle-orm';
import {
  EnvTag,
  PublicEnvironment,
  type Environment,
  type EnvironmentInput,
  type containerRoutes,
} from '../../protocol';
import type { Db } from '../db';
import { environments } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { remoteDeviceHandlers } from '../tunnel/remoteRoute';
import type { HandlersOf } from './register';

type EnvironmentRow = typeof environments.$inferSelect;

/** A stored row as the contract's Environment; stored tags that no longer match EnvTag are dropped. */
export function environmentOf(row: EnvironmentRow): Environment {
  const tags = Array.isArray(row.tags)
    ? row.tags.flatMap((t) => {
        const parsed = EnvTag.safeParse(t);
        return parsed.success ? [parsed.data] : [];
      })
    : [];
  return {
    id: row.id,
    alias: row.alias,
    name: row.name,
    description: row.description,
    image: row.image,
    tags,
    jupyter: row.jupyter,
    jupyter_port: row.jupyterPort,
    gpu: row.gpu,
    public: row.public,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const aliasTaken = (alias: string) =>
  new HttpError(409, 'Conflict', `An environment named "${alias}" already exists.`);

/** Column values of an EnvironmentInput (after validation: defaults applied). */
const columnsOf = (input: Required<EnvironmentInput>) => ({
  alias: input.alias,
  name: input.name,
  description: input.description,
  image: input.image,
  tags: input.tags,
  jupyter: input.jupyter,
  jupyterPort: input.jupyter_port,
  gpu: input.gpu,
  public: input.public,
});

async function findByAlias(db: Db, alias: string): Promise<EnvironmentRow | undefined> {
  const [row] = await db.select().from(environments).where(eq(environments.alias, alias));
  return row;
}

/** The PostgreSQL error code (SQLSTATE) of a failed query, seen through drizzle's wrapping. */
const pgCode = (err: unknown): string | undefined => {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
};
/** unique_violation: the alias is taken. */
const UNIQUE_VIOLATION = '23505';
/** invalid_text_representation: an id that is not a UUID names no environment. */
const NOT_A_UUID = '22P02';

export const containerHandlers: HandlersOf<typeof containerRoutes> = (ctx, app) => ({
  'containers.environments': async () => {
    const rows = await ctx.db
      .select()
      .from(environments)
      .orderBy(asc(environments.name), asc(environments.alias));
    return { environments: rows.map(environmentOf) };
  },

  'containers.environment': async ({ params }) => {
    const row = await findByAlias(ctx.db, params.alias);
    if (!row) throw notFound('Environment');
    return { environment: environmentOf(row) };
  },

  'containers.publicEnvironment': async ({ params }) => {
    const row = await findByAlias(ctx.db, params.alias);
    if (!row || !row.public) throw notFound('Environment');
    return { environment: PublicEnvironment.parse(environmentOf(row)) };
  },

  'containers.createEnvironment': async ({ body }) => {
    try {
      const [row] = await ctx.db
        .insert(environments)
        .values(columnsOf(body as Required<EnvironmentInput>))
        .returning();
      return { environment: environmentOf(row!) };
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw aliasTaken(body.alias);
      throw err;
    }
  },

  'containers.updateEnvironment': async ({ params, body }) => {
    try {
      const [row] = await ctx.db
        .update(environments)
        .set({ ...columnsOf(body as Required<EnvironmentInput>), updatedAt: new Date() })
        .where(eq(environments.id, params.id))
        .returning();
      if (!row) throw notFound('Environment');
      return { environment: environmentOf(row) };
    } catch (err) {
      if (pgCode(err) === UNIQUE_VIOLATION) throw aliasTaken(body.alias);
      if (pgCode(err) === NOT_A_UUID) throw notFound('Environment');
      throw err;
    }
  },

  'containers.deleteEnvironment': async ({ params }) => {
    try {
      const deleted = await ctx.db
        .delete(environments)
        .where(eq(environments.id, params.id))
        .returning({ id: environments.id });
      if (deleted.length === 0) throw notFound('Environment');
      return { deleted: true as const };
    } catch (err) {
      if (pgCode(err) === NOT_A_UUID) throw notFound('Environment');
      throw err;
    }
  },

  ...remoteDeviceHandlers(ctx, app),
});
