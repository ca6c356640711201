/**
 * Service calls: GET openapi.json (the OpenAPI document of every route, generated from the zod schemas) and
 * GET demo-account → { enabled, email?, password? } (the login page shows demo credentials in demo mode).
 */
import { z } from 'zod';
import type { ServerContext } from '../context';
import type { ZodApp } from './types';

export const DemoAccountResponse = z.object({
  enabled: z.boolean(),
  email: z.string().optional(),
  password: z.string().optional(),
});

export function registerMetaRoutes(app: ZodApp, ctx: ServerContext): void {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/api/demo-account',
    { schema: { tags: ['meta'], response: { 200: DemoAccountResponse } } },
    async () => {
      const demo = ctx.config.demoAccount;
      return demo ? { enabled: true, email: demo.email, password: demo.password } : { enabled: false };
    },
  );
}
