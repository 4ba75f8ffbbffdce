import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { request } from 'node:http';
import { pipeline } from 'node:stream';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

// The API server the dev server forwards to (see packages/server).
const apiPort = Number(process.env.WOLFPACK_API_PORT ?? 3000);
const apiTarget = `http://127.0.0.1:${apiPort}`;

/**
 * Previews have origins of their own, `p-<project id>.localhost:<port>`, on the port the browser
 * used, here the dev server's: their requests (every path) go on to the API server, whose
 * preview origins serve them. Proxy rules match paths only, so this is a middleware of its own.
 */
function previewHosts(): Plugin {
  return {
    name: 'wolfpack-preview-hosts',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!/^p-[0-9a-f-]+\.localhost(:\d+)?$/i.test(req.headers.host ?? '')) return next();
        const outgoing = request({ host: '127.0.0.1', port: apiPort, method: req.method, path: req.url, headers: req.headers }, (incoming) => {
          res.writeHead(incoming.statusCode ?? 502, incoming.headers);
          pipeline(incoming, res, () => undefined);
        });
        outgoing.on('error', () => {
          res.statusCode = 502;
          res.end(`The Wolfpack API server on port ${apiPort} did not answer: start it (pnpm dev starts both).`);
        });
        pipeline(req, outgoing, () => undefined);
      });
    },
  };
}

export default defineConfig({
  plugins: [previewHosts(), react(), tailwindcss()],
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
              // Vite's preload helper too: every page's lazy import calls it, so it must not follow a
              // lazily loaded library's chunk (which the home page would then load up front).
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]|vite[\\/]preload-helper/,
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
            // The code editor and the diff view load only when a file is edited or a version compared.
            {
              name: 'codemirror',
              test: /node_modules[\\/](codemirror|@codemirror[\\/](?!lang-|legacy-modes)[a-z-]+|@lezer[\\/](common|highlight|lr)|crelt|style-mod|w3c-keyname|@marijn)[\\/]/,
              priority: 28,
            },
            // Its grammars (language-data loads each on demand): one chunk per language, so a diff of
            // app.js downloads JavaScript's grammar and not the hundred others.
            {
              debugName: 'codemirror grammars',
              name: (id) => {
                const match = /@codemirror[\\/](lang-[a-z]+)|@lezer[\\/]([a-z-]+)|legacy-modes[\\/]mode[\\/]([a-z0-9-]+)/.exec(id);
                return `cm-${match?.[1] ?? match?.[2] ?? match?.[3] ?? 'grammar'}`;
              },
              test: /node_modules[\\/](@codemirror[\\/](lang-[a-z]+|legacy-modes)|@lezer)[\\/]/,
              priority: 27,
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
