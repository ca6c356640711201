/** drizzle-kit configuration: `npx drizzle-kit generate` writes SQL migrations for src/server/db/schema/ (one file per feature). */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './drizzle',
});
