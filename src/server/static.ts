/**
 * Serves the built console (production): files from `staticDir`, hashed assets (`/assets/…`) cached for a
 * year, index.html never cached; any other GET outside /api and /peerjs falls back to index.html (SPA routes
 * of spec §2). Everything else that matches no route answers 404 `{ code: 'Not_found', message }`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR_CODES } from '../protocol';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function isBackendPath(url: string): boolean {
  return /^\/(api|peerjs)(\/|\?|$)/.test(url);
}

/** Registers static serving (when `staticDir` has an index.html) and the not-found handler. */
export async function registerStatic(app: FastifyInstance, staticDir: string | null): Promise<void> {
  const hasIndex = staticDir !== null && existsSync(path.join(staticDir, 'index.html'));
  if (staticDir && !hasIndex) app.log.warn(`no index.html in ${staticDir}: the console is not served`);
  if (staticDir && hasIndex) {
    await app.register(fastifyStatic, {
      root: staticDir,
      cacheControl: false,
      setHeaders(res, filePath) {
        const rel = path.relative(staticDir, filePath).split(path.sep);
        res.setHeader('cache-control', rel[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const spa =
      hasIndex && (request.method === 'GET' || request.method === 'HEAD') && !isBackendPath(request.url);
    if (spa && !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({
      code: API_ERROR_CODES.notFound,
      message: `Route ${request.method} ${request.url.split('?')[0]} not found.`,
    });
  });
}
