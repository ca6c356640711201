/**
 * Service calls: the OpenAPI document of every route (generated from the route table) and the demo account
 * the login page shows in demo mode (README "Login form").
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** GET demo-account → { enabled, email?, password? }. */
export const DemoAccountResponse = z.object({
  enabled: z.boolean(),
  email: z.string().optional(),
  password: z.string().optional(),
});

export const metaRoutes = defineRoutes({
  'meta.openapi': {
    method: 'GET',
    path: '/api/openapi.json',
    auth: 'none',
    summary: 'The OpenAPI document of every route',
    answer: z.record(z.string(), z.unknown()),
    hidden: true,
  },
  'meta.demoAccount': {
    method: 'GET',
    path: '/api/demo-account',
    auth: 'none',
    summary: 'The demo account the login page shows, when the server publishes one',
    answer: DemoAccountResponse,
  },
});
