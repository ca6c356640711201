/**
 * Demo application commands (issue 14; shapes in src/protocol/demoApps.ts): demo-apps-info, nanoowl-detect,
 * llava-chat (tokens as link `progress` messages `{ token }`), speed-measure, city-observe. The device part
 * (src/agent/demoApps/) is built once per command context from its backend, cameras and models; on `host` it
 * keeps the speed application's camera watches (demoApps/hostWatch.ts) on the deployed ONNX detector.
 */
import path from 'node:path';
import { createDemoApps, type DeviceDemoApps } from '../demoApps';
import { loadOnnx } from '../inference/host';
import { installedModelFile } from '../models';
import type { CommandContext } from './context';
import type { Handlers } from './registry';

type DemoProcess = 'demo-apps-info' | 'nanoowl-detect' | 'llava-chat' | 'speed-measure' | 'city-observe';

const parts = new WeakMap<object, DeviceDemoApps>();
function demoApps(ctx: CommandContext): DeviceDemoApps {
  let part = parts.get(ctx.cameras);
  if (!part) {
    part = createDemoApps({
      mode: ctx.backend.name,
      findCamera: (id) => ctx.cameras.find(id),
      installed: () => ctx.models.installed(),
      openDetector: async (model) => {
        const onnx = await loadOnnx();
        return onnx
          ? onnx.createOnnxDetector(installedModelFile(ctx.models.dir, model), {
              cacheDir: path.join(ctx.models.dir, '.engine-cache'),
            })
          : null;
      },
    });
    parts.set(ctx.cameras, part);
  }
  return part;
}

export const demoAppHandlers = {
  'demo-apps-info': async (_payload, ctx) => ({ apps: await demoApps(ctx).info() }),
  'nanoowl-detect': async (p, ctx) => ({
    engine: ctx.backend.name,
    ...(await demoApps(ctx).detect(p.camera_id, p.prompt, p.threshold)),
  }),
  'llava-chat': async (p, ctx, scope) => ({
    engine: ctx.backend.name,
    ...(await demoApps(ctx).chat(
      p.camera_id,
      p.messages,
      (token) => scope.progress({ token }),
      scope.signal,
    )),
  }),
  'speed-measure': async (p, ctx) => ({
    engine: ctx.backend.name,
    ...(await demoApps(ctx).speed(p.camera_id, p.from, p.line_a, p.line_b, p.distance_m)),
  }),
  'city-observe': async (p, ctx) => ({
    engine: ctx.backend.name,
    ...(await demoApps(ctx).city(p.camera_id, p.from)),
  }),
} satisfies Pick<Handlers, DemoProcess>;
