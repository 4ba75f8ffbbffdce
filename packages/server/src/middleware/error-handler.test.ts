import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, moveProjectRequest, njinSnippetQuery, publishCapsuleRequest, streamRequest } from '@wolfpack/core';
import { errorHandler, validationError } from './error-handler.js';

describe('errorHandler', () => {
  const logged: string[] = [];
  let server: ReturnType<Koa['listen']>;
  let base: string;

  beforeAll(async () => {
    const app = new Koa();
    app.use(errorHandler({ info: () => {}, warn: () => {}, error: (m, e) => logged.push(`${m} ${String(e)}`) }));
    app.use((ctx) => {
      if (ctx.path === '/boom') throw new Error('database password is hunter2');
      if (ctx.path === '/app') throw new AppError('TOO_MANY_REQUESTS', 'Slow down.', { retryAfterSeconds: 30 });
      if (ctx.path === '/db-gone') throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      if (ctx.path === '/db-shutdown') throw new Error('Query failed', { cause: Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) });
      if (ctx.path === '/disk-full') throw Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
      if (ctx.path === '/zod') z.object({ name: z.string().min(1, 'Name is required') }).parse({ name: '' });
      ctx.throw(418, 'teapot');
    });
    server = app.listen(0);
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('answers unexpected errors with a bare 500 and keeps the details in the server log', async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toMatchObject({ success: false, code: 'INTERNAL' });
    expect(body).not.toContain('hunter2');
    expect(body).not.toContain('at ');
    expect(logged.join('\n')).toContain('hunter2');
  });

  it('answers a database that is away or full with 503, Retry-After and a sentence, never 500', async () => {
    for (const path of ['/db-gone', '/db-shutdown']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      const body = await res.text();
      expect(JSON.parse(body)).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', error: 'Wolfpack cannot reach its database right now. Try again in a few seconds.' });
      expect(body).not.toContain('5432');
    }
    const full = await fetch(`${base}/disk-full`);
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('30');
    expect(((await full.json()) as { error: string }).error).toMatch(/^The server's disk is full, so this could not be saved\./);
  });

  it('uses the status of the code table and sets Retry-After', async () => {
    const res = await fetch(`${base}/app`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toEqual({ success: false, error: 'Slow down.', code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 30 });
  });

  it('turns zod failures into 400 with every issue', async () => {
    const res = await fetch(`${base}/zod`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      error: 'Name is required',
      code: 'BAD_REQUEST',
      issues: [{ path: 'name', message: 'Name is required' }],
    });
  });

  it('keeps the status of exposed http errors', async () => {
    const res = await fetch(`${base}/other`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("teapot");
  });

  describe('validation errors say what to send', () => {
    const reply = (schema: z.ZodType, value: unknown) => {
      const result = schema.safeParse(value);
      if (result.success) throw new Error('expected a failure');
      const error = validationError(result.error);
      return { error: error.message, issues: (error.details as { issues: unknown }).issues };
    };

    it('names a missing field and its type instead of zod\'s "Invalid input"', () => {
      expect(reply(moveProjectRequest, {})).toEqual({ error: 'folderId is required: send a string.', issues: [{ path: 'folderId', message: 'folderId is required: send a string.' }] });
      expect(reply(njinSnippetQuery, {}).error).toBe('API key required');
      expect(reply(publishCapsuleRequest, { isPublic: 'true' }).error).toBe('isPublic must be true or false (a JSON boolean, without quotes)');
    });

    it('reports only the type of a value of the wrong type, not the rules it then breaks', () => {
      expect(reply(streamRequest, { idea: 'x', modelOrder: 'demo-alpha' }).issues).toEqual([
        { path: 'modelOrder', message: 'modelOrder must be a list (a JSON array), not string.' },
      ]);
    });

    it('names a number past the safe integers by the field\'s own bound', () => {
      expect(reply(streamRequest, { idea: 'x', cycles: 1e308 }).issues).toEqual([{ path: 'cycles', message: 'Run at most 5 cycles' }]);
      expect(reply(streamRequest, { idea: 'x', cycles: -1e308 }).issues).toEqual([{ path: 'cycles', message: 'Run at least 1 cycle' }]);
      expect(reply(streamRequest, { idea: 'x', cycles: 1.5 }).issues).toEqual([{ path: 'cycles', message: 'Cycles must be a whole number' }]);
    });
  });
});
