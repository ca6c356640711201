import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const target = `http://127.0.0.1:${process.env.PORT ?? 8080}`;

// The console is built into dist/ and served by the server in production; in development Vite serves it
// and proxies the server's paths (ARCHITECTURE.md "Processes").
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true },
  server: {
    port: 5173,
    proxy: {
      '/api': target,
      '/peerjs': { target, ws: true },
      '/realtime': { target, ws: true },
    },
  },
});
