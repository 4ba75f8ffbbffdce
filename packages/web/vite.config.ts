import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The API server the dev server forwards to (see packages/server).
const apiTarget = `http://127.0.0.1:${process.env.WOLFPACK_API_PORT ?? 3000}`;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // '@wolfpack/source' makes workspace packages (@wolfpack/core) resolve to their TypeScript source, so
    // the web app never needs core to be built first. Vite's own defaults must stay in the list.
    conditions: ['@wolfpack/source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/preview': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              priority: 30,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
            // Only the project page highlights code: its grammars stay out of the shared vendor chunk.
            {
              name: 'highlight',
              test: /node_modules[\\/](lowlight|highlight\.js|devlop)[\\/]/,
              priority: 25,
            },
            // The chart library and its helpers load only with the Savings dashboard.
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|victory-vendor|d3-[a-z-]+|internmap|@reduxjs|redux|redux-thunk|react-redux|immer|reselect|decimal\.js-light|es-toolkit|eventemitter3|tiny-invariant|react-is)[\\/]/,
              priority: 26,
            },
            // The QR code drawer loads only with Pack Perks.
            { name: 'qrcode', test: /node_modules[\\/](qrcode|dijkstrajs)[\\/]/, priority: 26 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
});
