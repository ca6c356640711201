/**
 * Service calls (contracts in src/protocol/meta.ts): GET openapi.json (the OpenAPI document of every route,
 * generated from the route table) and GET demo-account → { enabled, email?, password? } (the login page shows
 * demo credentials in demo mode). The demo password is published only by a server that listens on loopback
 * alone (`config.publishDemoAccount`): anyone who reaches a server bound beyond it could read an admin's
 * password.
 */
import type { metaRoutes } from '../../protocol';
import type { HandlersOf } from './register';

export const metaHandlers: HandlersOf<typeof metaRoutes> = (ctx, app) => ({
  'meta.openapi': async () => app.swagger() as unknown as Record<string, unknown>,

  'meta.demoAccount': async () => {
    const demo = ctx.config.publishDemoAccount ? ctx.config.demoAccount : null;
    return demo ? { enabled: true, email: demo.email, password: demo.password } : { enabled: false };
  },
});
