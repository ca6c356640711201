/**
 * Container commands (spec §7 "Containers": docker-create, docker-start, docker-stop, docker-remove,
 * getContainers; "Engine and images": check-docker-image, docker-image, download-docker-image; ours:
 * cancel-docker-download, start-jupyter, docker-logs, docker-processes). Shapes in
 * src/protocol/containers.ts. Container actions run as Docker processes (one per environment at a time, §4);
 * failures answer CommandError with codes of LINK_ERROR_CODES plus 'canceled' and 'engine_unavailable', and
 * §8 texts where they fit ("Ongoing Process", "Environment not found", "Container action failed", "Process
 * has been canceled").
 */
import { LINK_ERROR_CODES } from '../../protocol';
import { CONTAINER_TEXTS, remoteBasePath } from '../../protocol/containers';
import type { Container } from '../../protocol/containers';
import { ContainerEngineError } from '../containers/engine';
import { CANCELED_TEXT } from '../containers/processes';
import { errorMessage } from '../log';
import type { CommandContext } from './context';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type ContainerProcess =
  | 'check-docker-image'
  | 'docker-image'
  | 'download-docker-image'
  | 'cancel-docker-download'
  | 'docker-create'
  | 'docker-start'
  | 'docker-stop'
  | 'docker-remove'
  | 'start-jupyter'
  | 'getContainers'
  | 'docker-logs'
  | 'docker-processes';

/**
 * docker-logs answers at most this many bytes of lines (JSON), so the reply fits one link message
 * (session.ts MAX_MESSAGE_BYTES, 16 300): the newest lines are kept; each line is cut at LOG_LINE_MAX_CHARS.
 */
export const LOG_REPLY_MAX_BYTES = 12_000;
export const LOG_LINE_MAX_CHARS = 1_000;

/** The newest of `lines` that fit LOG_REPLY_MAX_BYTES, oldest first. */
export function fitLogLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.slice(0, LOG_LINE_MAX_CHARS);
    bytes += Buffer.byteLength(JSON.stringify(line)) + 1;
    if (bytes > LOG_REPLY_MAX_BYTES) break;
    out.push(line);
  }
  return out.reverse();
}

/** Error codes of this feature beyond LINK_ERROR_CODES. */
export const CONTAINER_ERROR_CODES = {
  canceled: 'canceled',
  engineUnavailable: 'engine_unavailable',
} as const;

/** An engine failure as a CommandError (other errors pass through: the dispatcher answers internal_error). */
export function toCommandError(err: unknown): unknown {
  if (!(err instanceof ContainerEngineError)) return err;
  switch (err.code) {
    case 'engine_unavailable':
      return new CommandError(CONTAINER_ERROR_CODES.engineUnavailable, err.message);
    case 'not_found':
      return new CommandError(LINK_ERROR_CODES.notFound, err.message);
    case 'canceled':
      return new CommandError(CONTAINER_ERROR_CODES.canceled, CANCELED_TEXT);
    default:
      return new CommandError(LINK_ERROR_CODES.internal, `${CONTAINER_TEXTS.actionFailed}: ${err.message}`);
  }
}

/** Runs `fn`, turning engine failures into CommandErrors. */
async function engineCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toCommandError(err);
  }
}

/** The container named by id, prefix or name; CommandError not_found when there is none. */
async function findContainer(ctx: CommandContext, id: string): Promise<Container> {
  const c = await engineCall(() => ctx.containers.get(id));
  if (!c) throw new CommandError(LINK_ERROR_CODES.notFound, `No such container: ${id}`);
  return c;
}

const actionMeta = (c: Container, message: string) => ({
  docker: c.Image,
  envName: c.EnvName,
  gpu: c.Gpu,
  message,
});

export const containerHandlers = {
  'check-docker-image': async ({ image }, ctx) => {
    try {
      const info = await ctx.containers.inspectImage(image);
      return info
        ? { status: 200, message: '', image: info }
        : { status: 404, message: `No such image: ${image}`, image: null };
    } catch (err) {
      if (err instanceof ContainerEngineError && err.code === 'engine_unavailable') {
        return { status: 503, message: err.message, image: null };
      }
      return {
        status: 500,
        message: `${CONTAINER_TEXTS.imageCheckFailed}: ${errorMessage(err)}`,
        image: null,
      };
    }
  },

  'docker-image': async (_payload, ctx) => ({ images: await engineCall(() => ctx.containers.listImages()) }),

  'download-docker-image': async ({ image, envName }, ctx, scope) => {
    const info = await engineCall(() =>
      ctx.dockerProcesses.download(image, envName ?? null, (progress) => scope.progress(progress)),
    );
    return { image, status: 'downloaded' as const, image_info: info };
  },

  'cancel-docker-download': async ({ image }, ctx) => ({ canceled: ctx.dockerProcesses.cancel(image) }),

  'docker-create': async (p, ctx) =>
    engineCall(() =>
      ctx.dockerProcesses.run(
        'create',
        { docker: p.image, envName: p.envName, gpu: p.gpu, message: `Creating a container of ${p.image}` },
        async (step) => {
          step(`Checking ${p.image}`);
          if (!(await ctx.containers.inspectImage(p.image))) {
            throw new CommandError(
              LINK_ERROR_CODES.notFound,
              `${CONTAINER_TEXTS.envNotFound}: ${p.image} is not on the device`,
            );
          }
          step(`Creating a container of ${p.image}`);
          const container = await ctx.containers.create({
            image: p.image,
            envName: p.envName,
            name: p.name,
            jupyterPort: p.jupyter_port,
            gpu: p.gpu,
          });
          return { container };
        },
      ),
    ),

  'docker-start': async ({ id }, ctx) => {
    const c = await findContainer(ctx, id);
    return engineCall(() =>
      ctx.dockerProcesses.run('start', actionMeta(c, `Starting ${c.Name}`), async () => ({
        container: await ctx.containers.start(c.Id),
      })),
    );
  },

  'docker-stop': async ({ id }, ctx) => {
    const c = await findContainer(ctx, id);
    return engineCall(() =>
      ctx.dockerProcesses.run('stop', actionMeta(c, `Stopping ${c.Name}`), async () => ({
        container: await ctx.containers.stop(c.Id),
      })),
    );
  },

  'docker-remove': async ({ id }, ctx) => {
    const c = await findContainer(ctx, id);
    return engineCall(() =>
      ctx.dockerProcesses.run('remove', actionMeta(c, `Removing ${c.Name}`), async () => ({
        removed: true as const,
        id: await ctx.containers.remove(c.Id),
      })),
    );
  },

  'start-jupyter': async ({ id }, ctx) => {
    const c = await findContainer(ctx, id);
    return engineCall(() =>
      ctx.dockerProcesses.run('start', actionMeta(c, `Starting Jupyter in ${c.Name}`), async () => ({
        container: await ctx.containers.startJupyter(c.Id, remoteBasePath(ctx.deviceId, c.Id)),
      })),
    );
  },

  getContainers: async (_payload, ctx) => ({ containers: await engineCall(() => ctx.containers.list()) }),

  'docker-logs': async ({ id, tail }, ctx) => {
    const c = await findContainer(ctx, id);
    return { lines: fitLogLines(await engineCall(() => ctx.containers.logs(c.Id, tail))) };
  },

  'docker-processes': async (_payload, ctx) => ({ processes: ctx.dockerProcesses.list() }),
} satisfies Pick<Handlers, ContainerProcess>;
