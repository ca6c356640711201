/**
 * Service calls (contracts in src/protocol/meta.ts): GET openapi.json (the OpenAPI document of every route,
 * generated from the route table) and GET demo-account → { enabled, email?, password? } (the login page shows
 * demo credentials in demo mode).
 */
import type { metaRoutes } from '../../protocol';
import type { HandlersOf } from './register';

export const metaHandlers: HandlersOf<typeof metaRoutes> = (ctx, app) => ({
  'meta.openapi': async () => app.swagger() as unknown as Record<string, unknown>,

  'meta.demoAccount': async () => {
    const demo = ctx.config.demoAccount;
    return demo ? { enabled: true, email: demo.email, password: demo.password } : { enabled: false };
  },
});
