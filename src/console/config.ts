/**
 * Console configuration read from Vite env variables at build time (ARCHITECTURE "Processes").
 * Every value has a same-origin default so the console works without any env file.
 */

/** Vite exposes `import.meta.env`; in Node (unit tests) it is undefined, so read it defensively. */
const env: Record<string, string | undefined> =
  (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};

/**
 * §2 External redirects. The spec names the targets only loosely ("a separate admin site at #/users"), so
 * each is configurable:
 * - VITE_DOCS_URL  (default '/docs-site/')
 * - VITE_BLOG_URL  (default '/blog-site/')
 * - VITE_ADMIN_SITE_URL (default '/admin-site/#/users')
 */
export const EXTERNAL_LINKS = {
  docs: env.VITE_DOCS_URL ?? '/docs-site/',
  blog: env.VITE_BLOG_URL ?? '/blog-site/',
  admin: env.VITE_ADMIN_SITE_URL ?? '/admin-site/#/users',
} as const;
export type ExternalLinks = { docs: string; blog: string; admin: string };
