/**
 * The Fastify application (ARCHITECTURE "Server"): zod validation and serialisation, `{ code, message }`
 * errors, the OpenAPI document, security headers (securityHeaders.ts), rate limiting, every route of the route
 * table, the built console.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyReply } from 'fastify';
import type pg from 'pg';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API_ERROR_CODES } from '../protocol';
import type { ServerConfig } from './config';
import type { ServerContext } from './context';
import type { DatabaseStatus } from './db/availability';
import {
  clientErrorHandler,
  databaseUnavailableRequests,
  HttpError,
  installErrorHandling,
  LOG_SERIALIZERS,
} from './errors';
import { rateLimitStore, refundAttempts, SharedCounts } from './rateLimitStore';
import { routeHandlers } from './routes';
import { mapConfigFromEnv } from './routes/map';
import { registerRestRoutes } from './routes/register';
import type { ZodApp } from './routes/types';
import { registerSecurityHeaders } from './securityHeaders';
import { registerStatic } from './static';
import { registerRemoteRoutes } from './tunnel';
import { registerUploadRoutes } from './uploads/tusServer';

/**
 * A bare app: compilers, error handling, request decorations. Routes come with `registerRoutes`. `status` is
 * the database's availability: the error handler records outages in it (503 Database_unavailable).
 */
export function createApp(config: ServerConfig, status?: DatabaseStatus): ZodApp {
  const app = Fastify({
    // Log lines stay small and never carry request bodies: requests are logged by method, url (clipped) and
    // status; errors by type, code and a clipped message and stack (a database error quotes its parameters).
    logger: { level: config.logLevel, serializers: LOG_SERIALIZERS },
    bodyLimit: 1024 * 1024,
    // /api/get_devices/ is the spec's path; /api/get_devices answers too.
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
    // Errors raised before routing (e.g. a malformed URL) get the same { code, message } shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      void reply.code(400).send({ code: API_ERROR_CODES.validation, message: error.message });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);
  app.decorateRequest('device', null);
  installErrorHandling(app, status);
  status?.setLogger(app.log);
  return app;
}

/**
 * Registers plugins and every route module on `app`. Call before `listen`. `status` is the database's
 * availability (createApp's): while the database is down, rate limits count in memory (./rateLimitStore.ts).
 */
export async function registerRoutes(
  app: ZodApp,
  ctx: ServerContext,
  status?: DatabaseStatus,
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Edge AI device console API',
        description:
          'REST calls of spec §7. Requests carry `Authorization: Token {token}`; errors are `{ code, message }`.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token {token}' },
        },
      },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await registerSecurityHeaders(app, mapConfigFromEnv(process.env).tile_url);
  // Counts in PostgreSQL, shared by every instance (issue 15 "Scale-out past one server"); in memory for a
  // request the database cannot count. Expired counts are deleted every minute.
  const counts = new SharedCounts({
    pool: (ctx.db as unknown as { $client: pg.Pool }).$client,
    status,
    log: app.log,
  });
  counts.startCleanup();
  app.addHook('onClose', async () => counts.stop());
  await app.register(fastifyRateLimit, {
    global: false,
    // A request answered 503 Database_unavailable gives its attempt back (issue 15): an outage locks no one out.
    store: rateLimitStore(counts),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, API_ERROR_CODES.rateLimited, `Too many attempts. Try again in ${context.after}.`),
  });
  app.addHook('onResponse', async (request) => {
    if (databaseUnavailableRequests.has(request)) refundAttempts(request);
  });
  registerRestRoutes(app, ctx, routeHandlers(ctx, app));
  await registerRemoteRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  await registerStatic(app, ctx.config.staticDir);
}
