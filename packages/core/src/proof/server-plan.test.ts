import { describe, expect, it } from 'vitest';
import { REACT_JS } from '../pipeline/faults/projects.js';
import { planPreview } from './preview-site.js';
import { planServer } from './server-plan.js';

const pkg = (fields: Record<string, unknown>) => JSON.stringify({ name: 'x', ...fields });

describe('planServer', () => {
  it('starts a Node project whose dependencies serve HTTP with its own start command', () => {
    const files = { 'package.json': pkg({ scripts: { start: 'node server.js' }, dependencies: { express: '^5.1.0' } }), 'server.js': "import express from 'express';" };
    expect(planServer(files)).toEqual({
      runtime: 'node',
      command: 'node server.js',
      display: 'npm start (node server.js)',
      entry: 'server.js',
      dependencies: { express: '^5.1.0' },
      typescript: false,
      framework: 'express',
    });
    for (const framework of ['koa', 'fastify', '@hapi/hapi', 'hono']) {
      expect(planServer({ 'package.json': pkg({ main: 'index.js', dependencies: { [framework]: '*' } }), 'index.js': '' })?.framework).toBe(framework);
    }
  });

  it("starts an entry that makes a server with Node's http module, and runs a build first when the start needs one", () => {
    const plain = { 'server.js': "const http = require('http');\nhttp.createServer((q, s) => s.end('hi')).listen(process.env.PORT);" };
    expect(planServer(plain)).toMatchObject({ runtime: 'node', command: 'node server.js', framework: 'node:http', dependencies: {} });
    expect(planServer({ 'index.mjs': "import { createServer } from 'node:http';\ncreateServer().listen(3000);" })?.entry).toBe('index.mjs');
    const built = {
      'package.json': pkg({ scripts: { build: 'tsc', start: 'node dist/server.js' }, devDependencies: { typescript: '5' } }),
      'src/server.ts': "import { createServer } from 'node:http';\ncreateServer().listen(3000);",
    };
    expect(planServer(built)).toMatchObject({ command: 'tsc && node dist/server.js', display: 'npm run build && npm start (node dist/server.js)', entry: 'src/server.ts', typescript: true });
  });

  it('leaves out Node projects that serve nothing: a CLI, a script that only fetches, a client of http', () => {
    expect(planServer({ 'index.js': "console.log('sum', 1 + 2);" })).toBeNull();
    expect(planServer({ 'index.js': "const https = require('https');\nhttps.get('https://example.com');" })).toBeNull();
    expect(planServer({ 'package.json': pkg({ scripts: { start: 'node cli.js' }, dependencies: { chalk: '5' } }), 'cli.js': '' })).toBeNull();
  });

  it('starts a Python web app by its __main__ block, else with its framework’s own runner', () => {
    const guarded = "from flask import Flask\napp = Flask(__name__)\n\nif __name__ == '__main__':\n    app.run(port=5000)\n";
    expect(planServer({ 'app.py': guarded, 'requirements.txt': 'flask\n' })).toEqual({
      runtime: 'python',
      command: 'python3 app.py',
      display: 'python3 app.py',
      entry: 'app.py',
      dependencies: {},
      typescript: false,
      framework: 'flask',
    });
    expect(planServer({ 'web/app.py': 'from flask import Flask\napp = Flask(__name__)\n' })).toMatchObject({ command: 'python3 -m flask --app web.app run --host 127.0.0.1 --port "$PORT"', display: 'python3 -m flask --app web.app run --host 127.0.0.1 --port $PORT' });
    expect(planServer({ 'main.py': 'from fastapi import FastAPI\napi = FastAPI()\n' })?.command).toBe('python3 -m uvicorn main:api --host 127.0.0.1 --port "$PORT"');
    const stdlib = "from http.server import HTTPServer, SimpleHTTPRequestHandler\nif __name__ == '__main__':\n    HTTPServer(('', 8000), SimpleHTTPRequestHandler).serve_forever()\n";
    expect(planServer({ 'serve.py': stdlib, 'util.py': 'X = 1\n' })).toMatchObject({ entry: 'serve.py', framework: 'http.server' });
    expect(planServer({ 'main.py': "print('hello')\n", 'test_main.py': 'from flask import Flask\n' })).toBeNull();
  });
});

describe('planPreview', () => {
  it('shows a server project through its server, and keeps static sites and bundled apps as they were', () => {
    const server = { 'package.json': pkg({ scripts: { start: 'node server.js' }, dependencies: { koa: '3' } }), 'server.js': '' };
    expect(planPreview(server)).toMatchObject({ kind: 'server', plan: { framework: 'koa' } });
    // Its own index.html makes it a static site.
    expect(planPreview({ ...server, 'index.html': '<h1>Hi</h1>' })).toEqual({ kind: 'static' });
    expect(planPreview(REACT_JS).kind).toBe('bundled');
    expect(planPreview({ 'index.html': '<h1>Hi</h1>', 'app.js': '' })).toEqual({ kind: 'static' });
    expect(planPreview({ 'package.json': pkg({ dependencies: { next: '15' }, scripts: { start: 'next start' } }) }).kind).toBe('none');
  });
});
