import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectTechStack, TECH_STACK_MAX } from './tech-stack.js';

const pkg = (value: unknown) => ({ path: 'package.json', content: JSON.stringify(value) });

describe('detectTechStack', () => {
  it('names dependencies readably, frameworks first, then file types by how many files use them', () => {
    const stack = detectTechStack([
      pkg({ dependencies: { express: '^5', react: '^19', 'left-pad': '1' }, devDependencies: { typescript: '5', vite: '7', tailwindcss: '4' } }),
      { path: 'src/main.tsx', content: '' },
      { path: 'src/app.tsx', content: '' },
      { path: 'server/index.ts', content: '' },
      { path: 'index.html', content: '' },
      { path: 'src/styles.css', content: '' },
      { path: 'scripts/seed.py', content: '' },
    ]);
    expect(stack).toEqual(['React', 'Express', 'TypeScript', 'Tailwind CSS', 'Vite', 'Python', 'HTML', 'CSS']);
  });

  it('reads file types alone when there is no package.json, and nested package.json files too', () => {
    expect(detectTechStack([{ path: 'index.html', content: '<p>' }, { path: 'app.js', content: '' }, { path: 'style.css', content: '' }])).toEqual(['JavaScript', 'HTML', 'CSS']);
    expect(detectTechStack([{ path: 'web/package.json', content: JSON.stringify({ dependencies: { vue: '3', koa: '3' } }) }])).toEqual(['Vue', 'Koa']);
    expect(detectTechStack([{ path: 'Dockerfile', content: '' }, { path: 'main.go', content: '' }, { path: 'go.mod', content: '' }])).toEqual(['Go', 'Docker']);
  });

  it('deduplicates (Prisma twice, TypeScript from package and files) and never throws on a malformed package.json', () => {
    expect(detectTechStack([pkg({ dependencies: { prisma: '1', '@prisma/client': '1', typescript: '5' } }), { path: 'a.ts', content: '' }])).toEqual(['TypeScript', 'Prisma']);
    for (const content of ['{', 'null', '[]', '"text"', '{"dependencies": ["react"]}', '{"dependencies": null}', '']) {
      expect(detectTechStack([{ path: 'package.json', content }, { path: 'x.svelte', content: '' }])).toEqual(['Svelte']);
    }
    expect(detectTechStack([])).toEqual([]);
    expect(detectTechStack([{ path: '.gitignore', content: '' }, { path: 'README', content: '' }])).toEqual([]);
  });

  it('is capped at 20, unique, and the same whatever the order of the files', () => {
    const many = pkg({ dependencies: Object.fromEntries(['next', 'react', 'vue', 'svelte', 'express', 'koa', 'fastify', 'hono', 'typescript', 'tailwindcss', 'vite', 'webpack', 'bootstrap', 'three', 'd3', 'graphql', 'pg', 'redis', 'zod', 'jest', 'vitest', 'stripe'].map((n) => [n, '1'])) });
    expect(detectTechStack([many, { path: 'a.py', content: '' }])).toHaveLength(TECH_STACK_MAX);
    fc.assert(
      fc.property(fc.array(fc.record({ path: fc.string(), content: fc.string() }), { maxLength: 30 }), (files) => {
        const stack = detectTechStack(files);
        expect(stack.length).toBeLessThanOrEqual(TECH_STACK_MAX);
        expect(new Set(stack).size).toBe(stack.length);
        expect(detectTechStack([...files].reverse())).toEqual(stack);
      }),
    );
  });
});
