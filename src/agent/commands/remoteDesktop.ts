/**
 * Remote control commands (§7 "Logs and remote control": mouse-control, mouse-drag, scroll-mouse,
 * keyboard-control, close-remote-window; §3 openWindows as get-open-windows) answered by the device's
 * desktop driver (src/agent/remoteDesktop/). The picture itself is a stream: send-sdp with camera_id
 * 'remote-desktop' (commands/streams.ts).
 */
import type { Handlers } from './registry';

type RemoteDesktopProcess =
  | 'mouse-control'
  | 'mouse-drag'
  | 'scroll-mouse'
  | 'keyboard-control'
  | 'close-remote-window'
  | 'get-open-windows';

const OK = { ok: true } as const;

export const remoteDesktopHandlers = {
  'mouse-control': async (payload, ctx) => {
    await ctx.remoteDesktop.mouse(payload);
    return OK;
  },
  'mouse-drag': async (payload, ctx) => {
    await ctx.remoteDesktop.drag(payload);
    return OK;
  },
  'scroll-mouse': async (payload, ctx) => {
    await ctx.remoteDesktop.scroll(payload);
    return OK;
  },
  'keyboard-control': async (payload, ctx) => {
    await ctx.remoteDesktop.keyboard(payload);
    return OK;
  },
  'close-remote-window': async ({ window_id }, ctx) => ({
    closed: await ctx.remoteDesktop.closeWindow(window_id),
  }),
  'get-open-windows': async (_payload, ctx) => ctx.remoteDesktop.windows(),
} satisfies Pick<Handlers, RemoteDesktopProcess>;
