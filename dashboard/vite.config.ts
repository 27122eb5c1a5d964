/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants as zlib } from 'node:zlib';

const backend = process.env.VITE_API_PROXY ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [
    react(),
    // Pre-compressed siblings (.br, .gz) of every built script and style sheet, written at build
    // time: WhiteNoise (Django, granian) and nginx (gzip_static/brotli_static) send them as they are.
    compression({
      include: /\.(js|mjs|css|svg|json)$/,
      threshold: 512,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      logLevel: 'silent',
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    // Keep the Host header: the backend picks the tenant from it.
    proxy: { '/api': { target: backend, changeOrigin: false } },
  },
  build: {
    chunkSizeWarningLimit: 2000,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 60_000,
    // One jsdom environment per worker thread, shared by its test files: every test renders with
    // a store of its own (src/test/render.tsx) and setup.ts empties the document, storage, toasts
    // and request handlers after each. Half the CPU of a fresh environment per file (82 s against
    // 178 s for the whole run, same machine, same hour).
    pool: 'threads',
    isolate: false,
    // Every core (Vitest's default leaves one free: on a 2-core machine one worker, the run's wall
    // time its whole CPU time): 143 s -> 74 s for the same tests on this machine, same hour.
    maxWorkers: availableParallelism(),
  },
});
