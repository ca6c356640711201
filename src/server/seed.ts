/**
 * Idempotent seeding used by `npm start` (demo account, simulated devices) and the end-to-end tests.
 *   ensureUser     by email (case-insensitive): creates or updates password, username, roles, confirmation
 *   ensureDevice   by (owner, label): creates the device once ('dev-' + 16 hex peer id unless given)
 *   issueDeviceToken  a new 60-day device token for a device row (the previous one is revoked)
 *   ensureGroups   a small device-group and camera-group tree for a user (§3 Group)
 *   ensureIpCamera by (owner, label): an IP camera reached through one of the owner's devices (§3 IP camera)
 *   setStreamLimit a device's max concurrent streams (§3 stream limit; usage/check_stream_limit)
 *   ensureEnvironments  the default environment catalogue when the catalogue is empty (§2 /containers)
 *   fleet          many offline devices for one owner at once (the device-list benchmark: 100,000 devices)
 */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { EnvironmentInput, type Role } from '../protocol';
import { hashPassword, verifyPassword } from './auth/passwords';
import { DEFAULT_ROLES } from './config';
import type { ServerContext } from './context';
import { devices, environments, groups, ipCameras, streamLimits, users } from './db/schema';
import { ensureDemoModels } from './models/seed';
import { ensureDemoApplications } from './routes/applications';
import { issueDeviceToken } from './routes/devices';

export interface EnsureUserInput {
  email: string;
  password: string;
  username?: string;
  roles?: Role[];
  /** Default true; false makes login answer status 1 (confirm mail). */
  emailConfirmed?: boolean;
}

export interface EnsureDeviceInput {
  ownerId: string;
  label: string;
  /** §9 '0' = x86, anything else = Jetson. */
  chipsetId: string;
  jetpack?: string | null;
  clientName?: string;
  /** Peer id; default 'dev-' + 16 random hex digits. */
  deviceId?: string;
  /** Where the device stands (WGS 84 degrees, §2 /map); set only when the device is created. */
  location?: { latitude: number; longitude: number } | null;
}

export interface EnsureIpCameraInput {
  ownerId: string;
  /** Row id of the owner's device that can reach the camera (its agent pulls the stream), or null. */
  deviceRowId: string | null;
  /** Unique per owner; the camera's identity for seeding. */
  label: string;
  /** rtsp://, http(s)://, a file path, or sim://<name> (a simulated network camera of the sim backend). */
  url: string;
}

/** The seeding API of a running server (RunningServer.seed). */
export interface Seed {
  ensureUser(input: EnsureUserInput): Promise<{ id: string }>;
  ensureDevice(input: EnsureDeviceInput): Promise<{ id: string; device_id: string }>;
  issueDeviceToken(deviceRowId: string): Promise<string>;
  ensureGroups(ownerId: string): Promise<void>;
  /**
   * Creates the owner's IP camera `label` or updates its url and device (idempotent by owner + label).
   * @throws Error when `deviceRowId` is not a device of `ownerId`, or `label`/`url` is empty.
   */
  ensureIpCamera(input: EnsureIpCameraInput): Promise<{ id: string }>;
  /**
   * Sets a device's maximum number of concurrent streams (usage/check_stream_limit answers
   * is_quota_available = numOfCameras <= maxStreams). @throws Error on a negative or non-integer limit.
   */
  setStreamLimit(deviceRowId: string, maxStreams: number): Promise<void>;
  /**
   * Gives `ownerId` the demo account's models (small real files) and its application (idempotent by name),
   * as the demo account gets at start-up (issue 9).
   */
  ensureDemoContent(ownerId: string): Promise<void>;
  /**
   * Adds the default environment catalogue (DEFAULT_ENVIRONMENTS) when the catalogue is empty; an admin's
   * catalogue is never touched. Resolves with the number of environments added.
   */
  ensureEnvironments(): Promise<number>;
  /**
   * Adds `count` devices to `ownerId` in one statement (labels `${labelPrefix} 000001`…, client names
   * 'fleet-client-<n mod 97>', alternating x86 / Jetson, created one second apart). They never connect: for
   * the device-list benchmark and load demos. Resolves with the number of devices added.
   * @throws Error when `count` is not an integer in 1..1,000,000.
   */
  fleet(ownerId: string, count: number, labelPrefix?: string): Promise<number>;
  /**
   * Adds `count` users in one statement ('<first>.<last><n>@<prefix>-<n mod 13>.example', username
   * '<First> <Last> <n>' from small name lists, every 50th an admin, every 20th disabled, created one second
   * apart) that cannot sign in (no usable password): for the admin user-list benchmark (issue 13). Resolves
   * with the number added.
   * @throws Error when `count` is not an integer in 1..1,000,000.
   */
  bulkUsers(count: number, prefix?: string): Promise<number>;
}

/** A new device peer id: 'dev-' + 16 hex digits. */
export function newDevicePeerId(): string {
  return 'dev-' + randomBytes(8).toString('hex');
}

/** Default group trees (§3 Group: device or camera, with children). */
const GROUP_TREES: { type: 'device' | 'camera'; name: string; children: string[] }[] = [
  { type: 'device', name: 'Headquarters', children: ['Lab', 'Warehouse'] },
  { type: 'device', name: 'Field units', children: [] },
  { type: 'camera', name: 'Entrances', children: ['Main gate'] },
  { type: 'camera', name: 'Production line', children: [] },
];

export function createSeed(ctx: ServerContext): Seed {
  const { db } = ctx;
  return {
    async ensureUser(input) {
      const email = input.email.trim().toLowerCase();
      const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      if (existing) {
        const samePassword = await verifyPassword(existing.passwordHash, input.password);
        await db
          .update(users)
          .set({
            ...(samePassword ? {} : { passwordHash: await hashPassword(input.password) }),
            ...(input.username !== undefined ? { username: input.username } : {}),
            ...(input.roles !== undefined ? { roles: input.roles } : {}),
            emailConfirmed: input.emailConfirmed ?? true,
          })
          .where(eq(users.id, existing.id));
        return { id: existing.id };
      }
      const [created] = await db
        .insert(users)
        .values({
          email,
          username: input.username ?? email.split('@')[0] ?? email,
          passwordHash: await hashPassword(input.password),
          roles: input.roles ?? DEFAULT_ROLES,
          emailConfirmed: input.emailConfirmed ?? true,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (created) return created;
      return this.ensureUser(input); // created concurrently: update it instead
    },

    async ensureDevice(input) {
      const [existing] = await db
        .select({ id: devices.id, device_id: devices.deviceId })
        .from(devices)
        .where(and(eq(devices.ownerId, input.ownerId), eq(devices.label, input.label)))
        .limit(1);
      if (existing) return existing;
      const [created] = await db
        .insert(devices)
        .values({
          ownerId: input.ownerId,
          label: input.label,
          deviceId: input.deviceId ?? newDevicePeerId(),
          chipsetId: input.chipsetId,
          jetpack: input.jetpack ?? null,
          clientName: input.clientName ?? '',
          latitude: input.location?.latitude ?? null,
          longitude: input.location?.longitude ?? null,
        })
        .returning({ id: devices.id, device_id: devices.deviceId });
      if (!created) throw new Error('device insert returned nothing');
      return created;
    },

    async issueDeviceToken(deviceRowId) {
      const [device] = await db.select().from(devices).where(eq(devices.id, deviceRowId)).limit(1);
      if (!device) throw new Error(`No device with id ${deviceRowId}`);
      return issueDeviceToken(ctx, device);
    },

    async ensureGroups(ownerId) {
      for (const tree of GROUP_TREES) {
        const names = [tree.name, ...tree.children];
        await db
          .insert(groups)
          .values(names.map((name) => ({ ownerId, name, groupType: tree.type })))
          .onConflictDoNothing();
        const [root] = await db
          .select({ id: groups.id })
          .from(groups)
          .where(
            and(eq(groups.ownerId, ownerId), eq(groups.groupType, tree.type), eq(groups.name, tree.name)),
          );
        for (const child of tree.children) {
          await db
            .update(groups)
            .set({ parentId: root!.id })
            .where(and(eq(groups.ownerId, ownerId), eq(groups.groupType, tree.type), eq(groups.name, child)));
        }
      }
    },

    async ensureIpCamera(input) {
      const label = input.label.trim();
      const url = input.url.trim();
      if (!label || !url) throw new Error('An IP camera needs a label and a url');
      if (input.deviceRowId !== null) {
        const [device] = await db
          .select({ id: devices.id })
          .from(devices)
          .where(and(eq(devices.id, input.deviceRowId), eq(devices.ownerId, input.ownerId)))
          .limit(1);
        if (!device) throw new Error(`Device ${input.deviceRowId} is not a device of user ${input.ownerId}`);
      }
      const [row] = await db
        .insert(ipCameras)
        .values({ ownerId: input.ownerId, label, url, deviceRowId: input.deviceRowId })
        .onConflictDoUpdate({
          target: [ipCameras.ownerId, ipCameras.label],
          set: { url, deviceRowId: input.deviceRowId },
        })
        .returning({ id: ipCameras.id });
      if (!row) throw new Error('IP camera upsert returned nothing');
      return row;
    },

    async setStreamLimit(deviceRowId, maxStreams) {
      if (!Number.isInteger(maxStreams) || maxStreams < 0) {
        throw new Error(`maxStreams must be a non-negative integer, got ${maxStreams}`);
      }
      await db
        .insert(streamLimits)
        .values({ deviceRowId, maxStreams })
        .onConflictDoUpdate({ target: streamLimits.deviceRowId, set: { maxStreams } });
    },

    async ensureDemoContent(ownerId) {
      await ensureDemoModels(ctx, ownerId);
      await ensureDemoApplications(ctx, ownerId);
    },

    async fleet(ownerId, count, labelPrefix = 'Fleet device') {
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
        throw new Error(`fleet: count must be an integer in 1..1000000, got ${count}`);
      }
      // One statement: generate_series rows, peer ids from gen_random_uuid()'s hex (16 digits like newDevicePeerId).
      const added = await db.execute(sql`
        insert into ${devices} (device_id, owner_id, label, client_name, chipset_id, jetpack, created_at)
        select 'dev-' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 16),
               ${ownerId}::uuid,
               ${labelPrefix} || ' ' || lpad(n::text, 6, '0'),
               'fleet-client-' || (n % 97),
               case when n % 2 = 0 then '0' else '23' end,
               case when n % 2 = 0 then null else '6.0' end,
               now() - make_interval(secs => ${count} - n)
        from generate_series(1, ${count}) as n`);
      // Statistics and the visibility map at once, as autovacuum would later: the planner picks the list's
      // indexes and counts are index-only scans.
      await db.execute(sql`vacuum analyze ${devices}`);
      return added.rowCount ?? 0;
    },

    async bulkUsers(count, prefix = 'bench-user') {
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
        throw new Error(`bulkUsers: count must be an integer in 1..1000000, got ${count}`);
      }
      const added = await db.execute(sql`
        insert into ${users} (email, username, password_hash, roles, email_confirmed, disabled_at, created_at)
        select lower(f.name) || '.' || lower(l.name) || n || '@' || ${prefix} || '-' || (n % 13) || '.example',
               f.name || ' ' || l.name || ' ' || n,
               '!', case when n % 50 = 0 then '{admin,user}'::text[] else '{user}'::text[] end, true,
               case when n % 20 = 0 then now() else null end,
               now() - make_interval(secs => ${count} - n)
        from generate_series(1, ${count}) as n,
             lateral (select (array['Ada','Grace','Linus','Margaret','Ken','Barbara','Dennis','Frances','Alan',
               'Edsger','Radia','Tim','Hedy','John','Sophie','Niklaus'])[1 + n % 16] as name) f,
             lateral (select (array['Lovelace','Hopper','Torvalds','Hamilton','Thompson','Liskov','Ritchie','Allen',
               'Turing','Dijkstra','Perlman','Berners','Lamarr','McCarthy','Wilson','Wirth','Knuth'])[1 + (n / 16) % 17]
               as name) l
        on conflict (email) do nothing`);
      await db.execute(sql`vacuum analyze ${users}`);
      return added.rowCount ?? 0;
    },

    async ensureEnvironments() {
      const [any] = await db.select({ id: environments.id }).from(environments).limit(1);
      if (any) return 0;
      const rows = DEFAULT_ENVIRONMENTS.map((e) => EnvironmentInput.parse(e));
      const added = await db
        .insert(environments)
        .values(
          rows.map((e) => ({
            alias: e.alias,
            name: e.name,
            description: e.description,
            image: e.image,
            tags: e.tags,
            jupyter: e.jupyter,
            jupyterPort: e.jupyter_port,
            gpu: e.gpu,
            public: e.public,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: environments.id });
      return added.length;
    },
  };
}

/**
 * The catalogue a new installation starts with (spec §2 /containers). The images and sizes are those the
 * `sim` backend's registry knows (src/agent/containers/simRegistry.ts), so the demo's simulated devices can
 * pull and run them; on a real device they are pulled from the registry the device's Docker engine uses.
 */
export const DEFAULT_ENVIRONMENTS: readonly EnvironmentInput[] = [
  {
    alias: 'pytorch-jupyter',
    name: 'PyTorch with JupyterLab',
    description:
      'PyTorch 2.3 with CUDA, torchvision and JupyterLab, for training and trying models on the device.',
    image: 'edge/jupyter-pytorch',
    tags: [
      { tag: '2.3-jetson', platform: 'jetson', size_mb: 2400 },
      { tag: '2.3-x86', platform: 'x86', size_mb: 3100 },
    ],
    jupyter: true,
    gpu: true,
  },
  {
    alias: 'tensorflow-jupyter',
    name: 'TensorFlow with JupyterLab',
    description: 'TensorFlow 2.16 with Keras and JupyterLab.',
    image: 'edge/jupyter-tensorflow',
    tags: [{ tag: '2.16', platform: 'any', size_mb: 1900 }],
    jupyter: true,
    gpu: true,
  },
  {
    alias: 'python',
    name: 'Python 3.11',
    description: 'A plain Python 3.11 environment for scripts and services.',
    image: 'edge/python',
    tags: [{ tag: '3.11', platform: 'any', size_mb: 180 }],
    jupyter: false,
    gpu: false,
  },
];
