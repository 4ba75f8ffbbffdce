/**
 * Tech-stack detection for Showcase listings: what a project is built with, read from its
 * package.json dependencies and its file types. Pure and total: a malformed package.json or an odd
 * file name never throws, it only contributes nothing.
 */

export interface StackFile {
  path: string;
  content: string;
}

/** At most this many entries (the listing schema's limit). */
export const TECH_STACK_MAX = 20;

/**
 * npm packages worth naming, most telling first: frameworks before build tools before libraries.
 * The order here is the order of importance in the result.
 */
const PACKAGES: ReadonlyArray<readonly [string, string]> = [
  ['next', 'Next.js'],
  ['nuxt', 'Nuxt'],
  ['@remix-run/react', 'Remix'],
  ['@sveltejs/kit', 'SvelteKit'],
  ['astro', 'Astro'],
  ['react', 'React'],
  ['vue', 'Vue'],
  ['svelte', 'Svelte'],
  ['@angular/core', 'Angular'],
  ['solid-js', 'Solid'],
  ['preact', 'Preact'],
  ['react-native', 'React Native'],
  ['electron', 'Electron'],
  ['express', 'Express'],
  ['koa', 'Koa'],
  ['fastify', 'Fastify'],
  ['hono', 'Hono'],
  ['@nestjs/core', 'NestJS'],
  ['typescript', 'TypeScript'],
  ['tailwindcss', 'Tailwind CSS'],
  ['vite', 'Vite'],
  ['webpack', 'webpack'],
  ['@mui/material', 'Material UI'],
  ['bootstrap', 'Bootstrap'],
  ['three', 'Three.js'],
  ['d3', 'D3'],
  ['chart.js', 'Chart.js'],
  ['socket.io', 'Socket.IO'],
  ['graphql', 'GraphQL'],
  ['prisma', 'Prisma'],
  ['@prisma/client', 'Prisma'],
  ['drizzle-orm', 'Drizzle'],
  ['mongoose', 'MongoDB'],
  ['mongodb', 'MongoDB'],
  ['pg', 'PostgreSQL'],
  ['mysql2', 'MySQL'],
  ['sqlite3', 'SQLite'],
  ['better-sqlite3', 'SQLite'],
  ['redis', 'Redis'],
  ['@tanstack/react-query', 'TanStack Query'],
  ['redux', 'Redux'],
  ['@reduxjs/toolkit', 'Redux'],
  ['zod', 'Zod'],
  ['jest', 'Jest'],
  ['vitest', 'Vitest'],
  ['playwright', 'Playwright'],
  ['@playwright/test', 'Playwright'],
  ['stripe', 'Stripe'],
  ['openai', 'OpenAI SDK'],
];

/** File extensions, by importance (languages before markup before styles). */
const EXTENSIONS: ReadonlyArray<readonly [string, string]> = [
  ['ts', 'TypeScript'],
  ['tsx', 'TypeScript'],
  ['mts', 'TypeScript'],
  ['cts', 'TypeScript'],
  ['js', 'JavaScript'],
  ['jsx', 'JavaScript'],
  ['mjs', 'JavaScript'],
  ['cjs', 'JavaScript'],
  ['py', 'Python'],
  ['go', 'Go'],
  ['rs', 'Rust'],
  ['java', 'Java'],
  ['kt', 'Kotlin'],
  ['swift', 'Swift'],
  ['rb', 'Ruby'],
  ['php', 'PHP'],
  ['cs', 'C#'],
  ['cpp', 'C++'],
  ['cc', 'C++'],
  ['c', 'C'],
  ['dart', 'Dart'],
  ['vue', 'Vue'],
  ['svelte', 'Svelte'],
  ['html', 'HTML'],
  ['htm', 'HTML'],
  ['css', 'CSS'],
  ['scss', 'Sass'],
  ['sass', 'Sass'],
  ['less', 'Less'],
  ['sql', 'SQL'],
  ['sh', 'Shell'],
];

/** Whole file names that say something on their own. */
const FILE_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['dockerfile', 'Docker'],
  ['requirements.txt', 'Python'],
  ['pyproject.toml', 'Python'],
  ['go.mod', 'Go'],
  ['cargo.toml', 'Rust'],
  ['tailwind.config.js', 'Tailwind CSS'],
  ['tailwind.config.ts', 'Tailwind CSS'],
  ['vite.config.ts', 'Vite'],
  ['vite.config.js', 'Vite'],
  ['tsconfig.json', 'TypeScript'],
];

const PACKAGE_NAMES = new Map(PACKAGES);
const EXTENSION_NAMES = new Map(EXTENSIONS);
const WHOLE_NAMES = new Map(FILE_NAMES);

/**
 * What a project is built with, readable names ("React", "Express", "TypeScript"), without
 * duplicates, most important first, at most {@link TECH_STACK_MAX}: dependencies named in any
 * package.json first (in the table's order), then languages and file types by how many files use
 * them.
 */
export function detectTechStack(files: readonly StackFile[]): string[] {
  const fromPackages = new Set<string>();
  for (const file of files) {
    if (baseName(file.path) !== 'package.json') continue;
    for (const name of dependencyNames(file.content)) fromPackages.add(name);
  }
  const ranked = PACKAGES.filter(([name]) => fromPackages.has(name)).map(([, label]) => label);

  const counts = new Map<string, { count: number; rank: number }>();
  const count = (label: string, rank: number) => {
    const entry = counts.get(label);
    if (entry) {
      entry.count += 1;
      entry.rank = Math.min(entry.rank, rank);
    } else counts.set(label, { count: 1, rank });
  };
  for (const file of files) {
    const base = baseName(file.path);
    const whole = WHOLE_NAMES.get(base);
    if (whole) count(whole, EXTENSIONS.length);
    const dot = base.lastIndexOf('.');
    if (dot <= 0) continue;
    const extension = base.slice(dot + 1);
    const label = EXTENSION_NAMES.get(extension);
    if (label) count(label, EXTENSIONS.findIndex(([e]) => e === extension));
  }
  // More files first; ties by the table's order, so the result is the same for any file order.
  const byFiles = [...counts].sort(([, a], [, b]) => b.count - a.count || a.rank - b.rank).map(([label]) => label);

  return [...new Set([...ranked, ...byFiles])].slice(0, TECH_STACK_MAX);
}

function baseName(path: string): string {
  const parts = String(path).split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').toLowerCase();
}

/** Every package named in a package.json's dependency maps; nothing for text that is not one. */
function dependencyNames(content: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const names: string[] = [];
  for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const map = (parsed as Record<string, unknown>)[key];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const name of Object.keys(map)) if (PACKAGE_NAMES.has(name)) names.push(name);
  }
  return names;
}
