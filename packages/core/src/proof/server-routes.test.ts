import { describe, expect, it } from 'vitest';
import { findServerRoutes, routeHasParameters } from './server-routes.js';

const routes = (files: Record<string, string>) => findServerRoutes(files).map((r) => `${r.method} ${r.path}`);

describe('findServerRoutes', () => {
  it('finds Express routes with their file and line, once each, and none in tests or browser code', () => {
    const files = {
      'server.js': [
        "import express from 'express';",
        'const app = express();',
        "app.use(express.static('public'));",
        "app.get('/health', (req, res) => res.json({ ok: true }));",
        "app.get('/api/notes', (req, res) => res.json(notes));",
        "app.post('/api/notes', (req, res) => res.status(201).json({}));",
        "app.delete('/api/notes/:id', (req, res) => res.status(204).end());",
        "// app.get('/old', gone);",
        "app.get('/health', again);",
        'app.listen(process.env.PORT ?? 3000);',
      ].join('\n'),
      'public/app.js': "fetch('/api/notes'); axios.get('/api/other'); $.get('/api/jq');",
      'test/server.test.js': "await request(app).get('/api/tested'); app.get('/api/fake');",
    };
    expect(findServerRoutes(files)).toEqual([
      { method: 'GET', path: '/health', file: 'server.js', line: 4 },
      { method: 'GET', path: '/api/notes', file: 'server.js', line: 5 },
      { method: 'POST', path: '/api/notes', file: 'server.js', line: 6 },
      { method: 'DELETE', path: '/api/notes/:id', file: 'server.js', line: 7 },
    ]);
  });

  it('puts the mount prefix of a router of the same file or of an imported file in front', () => {
    const files = {
      'src/server.ts': [
        "import express from 'express';",
        "import notes from './routes/notes.js';",
        "const users = require('./routes/users');",
        'const app = express();',
        'const api = express.Router();',
        "api.get('/status', (q, s) => s.send('ok'));",
        "app.use('/api', api);",
        "app.use('/api/notes', auth, notes);",
        "app.use('/users', users);",
        "app.use('/v2', require('./routes/v2'));",
        "app.route('/book').get(list).post(create);",
      ].join('\n'),
      'src/routes/notes.ts': "import { Router } from 'express';\nconst router = Router();\nrouter.get('/', list);\nrouter.patch('/:id', edit);\nexport default router;",
      'src/routes/users.js': "const router = require('express').Router();\nrouter.get('/me', me);\nmodule.exports = router;",
      'src/routes/v2.js': "const r = require('express').Router();\nr.put('/thing', put);\nmodule.exports = r;",
    };
    expect(routes(files)).toEqual(['GET /api/notes', 'PATCH /api/notes/:id', 'GET /users/me', 'PUT /v2/thing', 'GET /api/status', 'GET /book', 'POST /book']);
  });

  it('reads Koa routers with a prefix, Fastify (shorthand, route and register prefixes), Hono and hapi', () => {
    expect(routes({ 'app.js': "const Router = require('@koa/router');\nconst router = new Router({ prefix: '/api' });\nrouter.get('/items', list);\nrouter.post('/items', add);" })).toEqual(['GET /api/items', 'POST /api/items']);
    const fastify = {
      'server.js': "import Fastify from 'fastify';\nimport notes from './notes.js';\nconst fastify = Fastify();\nfastify.get('/health', async () => ({ ok: true }));\nfastify.route({ method: ['GET', 'HEAD'], url: '/ping', handler });\nfastify.register(notes, { prefix: '/api' });",
      'notes.js': "export default async function (fastify) {\n  fastify.get('/notes', async () => []);\n}",
    };
    expect(routes(fastify)).toEqual(['GET /api/notes', 'GET /health', 'GET /ping']);
    const hono = {
      'src/index.ts': "import { Hono } from 'hono';\nimport { books } from './books';\nconst app = new Hono();\napp.get('/', (c) => c.text('hi')).post('/echo', echo);\napp.route('/books', books);",
      'src/books.ts': "import { Hono } from 'hono';\nexport const books = new Hono();\nbooks.get('/', (c) => c.json([]));",
    };
    expect(routes(hono)).toEqual(['GET /books', 'GET /', 'POST /echo']);
    // A mount on the file's last line, with neither a semicolon nor a newline after it.
    expect(routes({ ...hono, 'src/index.ts': hono['src/index.ts'].replace("app.route('/books', books);", "app.route('/shelf', books)") })).toContain('GET /shelf');
    const hapi = { 'server.js': "const Hapi = require('@hapi/hapi');\nserver.route([\n  { method: 'GET', path: '/todos', handler: () => [] },\n  { method: 'POST', path: '/todos', handler: (r, h) => { return h.response().code(201); } },\n]);" };
    expect(routes(hapi)).toEqual(['GET /todos', 'POST /todos']);
  });

  it('reads a node:http server by its url and method comparisons, switch cases and route tables', () => {
    const files = {
      'server.js': [
        "const http = require('node:http');",
        'http.createServer((req, res) => {',
        "  if (req.url === '/health') return res.end('ok');",
        "  if (req.method === 'POST' && req.url === '/api/notes') return add(req, res);",
        '  switch (pathname) {',
        "    case '/about': return about(res);",
        '  }',
        "}).listen(3000);",
        "const table = { 'GET /api/quotes': quotes };",
      ].join('\n'),
    };
    expect(findServerRoutes(files)).toEqual([
      { method: 'GET', path: '/health', file: 'server.js', line: 3 },
      { method: 'POST', path: '/api/notes', file: 'server.js', line: 4 },
      { method: 'GET', path: '/about', file: 'server.js', line: 6 },
      { method: 'GET', path: '/api/quotes', file: 'server.js', line: 9 },
    ]);
  });

  it('reads Next.js route handlers, Flask and FastAPI', () => {
    expect(findServerRoutes({ 'app/api/notes/[id]/route.ts': 'export async function GET() {}\nexport const DELETE = () => {};', 'app/(shop)/api/cart/route.js': 'export function POST() {}' })).toEqual([
      { method: 'POST', path: '/api/cart', file: 'app/(shop)/api/cart/route.js', line: 1 },
      { method: 'GET', path: '/api/notes/:id', file: 'app/api/notes/[id]/route.ts', line: 1 },
      { method: 'DELETE', path: '/api/notes/:id', file: 'app/api/notes/[id]/route.ts', line: 2 },
    ]);
    const flask = {
      'app.py': "from flask import Flask\nfrom routes import notes\napp = Flask(__name__)\n\n@app.route('/health')\ndef health():\n    return 'ok'\n\n@app.route('/items', methods=['GET', 'POST'])\ndef items():\n    pass\napp.register_blueprint(notes.bp, url_prefix='/api')",
      'routes/notes.py': "from flask import Blueprint\nbp = Blueprint('notes', __name__)\n\n@bp.get('/notes/<int:id>')\ndef one(id):\n    pass",
    };
    expect(findServerRoutes(flask)).toEqual([
      { method: 'GET', path: '/health', file: 'app.py', line: 5 },
      { method: 'GET', path: '/items', file: 'app.py', line: 9 },
      { method: 'POST', path: '/items', file: 'app.py', line: 9 },
      { method: 'GET', path: '/api/notes/<int:id>', file: 'routes/notes.py', line: 4 },
    ]);
    const fastapi = { 'main.py': "from fastapi import FastAPI, APIRouter\napp = FastAPI()\nrouter = APIRouter(prefix='/v1')\n\n@router.put('/things/{thing_id}')\nasync def put(thing_id: int):\n    pass\n\n@app.get(\"/\")\nasync def root():\n    return {}\napp.include_router(router)" };
    expect(routes(fastapi)).toEqual(['PUT /v1/things/{thing_id}', 'GET /']);
  });

  it("reads a README's METHOD /path and curl lines after the code's routes, without repeating them", () => {
    const files = {
      'server.js': "const express = require('express');\nconst app = express();\napp.get('/health', ok);",
      'README.md': [
        '# Notes',
        '- `GET /health` - liveness',
        '| POST | /api/notes | add a note |',
        'GET http://localhost:3000/api/notes?limit=5 lists them.',
        'curl -X DELETE localhost:3000/api/notes/1',
        "curl -d '{\"text\":\"hi\"}' http://127.0.0.1:3000/api/echo",
        'curl http://localhost:3000/quotes',
        'Use FORGET /nothing or GETTING /nothing.',
      ].join('\n'),
    };
    expect(findServerRoutes(files)).toEqual([
      { method: 'GET', path: '/health', file: 'server.js', line: 3 },
      { method: 'POST', path: '/api/notes', file: 'README.md', line: 3 },
      { method: 'GET', path: '/api/notes', file: 'README.md', line: 4 },
      { method: 'DELETE', path: '/api/notes/1', file: 'README.md', line: 5 },
      { method: 'POST', path: '/api/echo', file: 'README.md', line: 6 },
      { method: 'GET', path: '/quotes', file: 'README.md', line: 7 },
    ]);
  });

  it('finds nothing in a static site or a React app that calls an API', () => {
    expect(findServerRoutes({ 'index.html': '<script src="app.js"></script>', 'app.js': "fetch('/api/x')" })).toEqual([]);
    expect(findServerRoutes({ 'src/App.jsx': "import React from 'react';\nimport axios from 'axios';\nconst api = axios.create();\napi.get('/notes');", 'node_modules/express/lib/router.js': "router.get('/x')" })).toEqual([]);
  });
});

describe('routeHasParameters', () => {
  it('tells parameters and wildcards from plain paths', () => {
    for (const path of ['/notes/:id', '/files/*', '/items/{id}', '/u/<name>', '/api/notes/[id]']) expect(routeHasParameters(path)).toBe(true);
    for (const path of ['/', '/health', '/api/notes', '/a-b_c.json']) expect(routeHasParameters(path)).toBe(false);
  });
});

