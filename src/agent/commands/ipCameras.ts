/**
 * Handlers of the ipCameras feature's device commands (src/protocol/ipCameras.ts; issue 16 §2 IP cameras):
 *   ip-camera-still { url, username?, password? } → { image (PNG data URL), width, height }
 * The console sends the address and the credentials typed in the form (they go browser → device over the
 * encrypted peer link only; the device keeps nothing). Errors: the IP_STILL_ERRORS codes of
 * src/agent/ipCameras/still.ts, LINK busy when too many stills are being fetched.
 */
import { LINK_ERROR_CODES } from '../../protocol';
import { StillError } from '../ipCameras';
import { CommandError } from './errors';
import type { Handlers } from './registry';

export const ipCameraHandlers = {
  'ip-camera-still': async (payload, ctx, scope) => {
    try {
      return await ctx.ipCameras.still(payload, scope.signal);
    } catch (err) {
      if (err instanceof StillError) throw new CommandError(err.code, err.message);
      if ((err as Error).message === 'busy') {
        throw new CommandError(
          LINK_ERROR_CODES.busy,
          'The device is busy taking other stills; try again in a moment.',
        );
      }
      throw new CommandError(LINK_ERROR_CODES.internal, `The still failed: ${(err as Error).message}`);
    }
  },
} satisfies Pick<Handlers, 'ip-camera-still'>;
