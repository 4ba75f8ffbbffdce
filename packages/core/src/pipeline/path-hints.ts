/**
 * Where a model says which file a code block is: the fence's info string, a decorated line before
 * the fence, or a comment on the block's first line. These helpers only find candidate paths;
 * `sanitizePath` decides whether one is safe.
 */

// Extensions we accept on a bare token that has no folder part. Without this list every
// `console.log` or `React.FC` in prose would look like a file name.
const KNOWN_EXTENSIONS = new Set(
  (
    'ts tsx js jsx mjs cjs mts cts json jsonc json5 md mdx markdown txt rst adoc html htm css scss sass less styl ' +
    'vue svelte astro py pyi ipynb rb go mod sum rs java kt kts swift c h cc cpp cxx hpp hh m mm cs fs php sql ' +
    'sh bash zsh fish ps1 psm1 bat cmd yml yaml toml ini cfg conf env properties xml xsd svg graphql gql proto ' +
    'prisma lock gradle dart ex exs erl hrl hs lhs ml mli scala sc clj cljs edn tf tfvars hcl nix zig lua r jl pl ' +
    'pm tex bib csv tsv ejs hbs handlebars njk jinja jinja2 j2 pug liquid twig erb haml slim webmanifest ' +
    'gitignore gitattributes dockerignore editorconfig npmrc nvmrc prettierrc eslintrc babelrc browserslistrc ' +
    'sol vy cairo move d v sv vhd asm s ino pde gd tscn godot cmake mk in example sample template tpl'
  ).split(' '),
);

// Extensionless file names models commonly generate.
const KNOWN_NAMES = new Set([
  'Dockerfile',
  'Containerfile',
  'Makefile',
  'GNUmakefile',
  'Procfile',
  'Gemfile',
  'Rakefile',
  'Jenkinsfile',
  'Vagrantfile',
  'Caddyfile',
  'Brewfile',
  'Pipfile',
  'Justfile',
  'justfile',
  'LICENSE',
  'README',
  'CHANGELOG',
  'CODEOWNERS',
  'AUTHORS',
  'NOTICE',
]);

// Product names spelled like files ("Node.js", "Next.js"): a heading "### Next.js" is not a file.
const PRODUCT_NAMES = /^(node|next|nuxt|vue|express|three|chart|d3|nest|ember|backbone|angular|moment|p5|pixi|alpine|solid|deno|bun|react|preact|socket\.io|anime|babylon|phaser|electron|fastify|koa|hapi)\.js$/i;

/**
 * Does a token look like a file path? `lenient` accepts any token with a folder part or a dot
 * (the project's own `lang path` format is explicit enough for `bin/run`), otherwise a bare name
 * needs a known extension, a known file name or a leading dot.
 */
export function isPathLike(token: string, options: { lenient?: boolean; allowSpaces?: boolean } = {}): boolean {
  if (token.length === 0 || token.length > 400) return false;
  if (!options.allowSpaces && /\s/.test(token)) return false;
  if (/^\s|\s$/.test(token) || token.includes('://')) return false;
  if (/[`"'<>|*?]/.test(token) || /^[a-z][a-z0-9+.-]+:/i.test(token)) return false;
  const last = token.split('/').pop() ?? '';
  if (last === '' || last === '.' || last === '..') return false;
  if (!token.includes('/') && PRODUCT_NAMES.test(last)) return false;
  if (options.lenient && (token.includes('/') || /\.[^.]/.test(last))) return true;
  if (KNOWN_NAMES.has(last)) return true;
  if (/^\.[\w.-]+$/.test(last)) return true;
  const ext = /\.([A-Za-z][A-Za-z0-9_-]{0,11})$/.exec(last)?.[1];
  if (ext === undefined) return false;
  return KNOWN_EXTENSIONS.has(ext.toLowerCase()) || token.includes('/');
}

export interface InfoString {
  /** The language tag, lower-cased, when the first token is one. */
  language?: string;
  /** A path named in the info string. */
  path?: string;
}

const PATH_ATTRIBUTE = /(?:^|[\s{,])(title|file|filename|file_name|path|filepath|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'},]+))/i;
const LABEL_TOKEN = /^(file|filename|path|filepath)[:=]$/i;

/** Reads a fence's info string: `ts src/a.ts`, `ts title="src/a.ts"`, `src/a.ts`, `ts:src/a.ts`. */
export function parseInfoString(info: string): InfoString {
  let rest = info.trim();
  let path: string | undefined;
  const attribute = PATH_ATTRIBUTE.exec(rest);
  if (attribute) {
    const value = (attribute[2] ?? attribute[3] ?? attribute[4] ?? '').trim();
    // `title="Example"` is a display title on docs sites, not a file: only take file-like values.
    // `path=`, `file=`, `filename=` say outright that the value is a file, whatever its shape
    // (`path="CNAME"`, `path="docs/Read Me.md"`); sanitizePath decides whether it is safe.
    const label = (attribute[1] ?? '').toLowerCase();
    const deliberate = label !== 'title' && label !== 'name' && value !== '';
    if (deliberate || isPathLike(value, { lenient: true, allowSpaces: true })) path = value;
    rest = (rest.slice(0, attribute.index) + ' ' + rest.slice(attribute.index + attribute[0].length)).trim();
  }
  const tokens = rest
    .replace(/[{}]/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '')
    .map((t) => t.replace(/^[`"']+|[`"':,]+$/g, ''));
  const result: InfoString = {};
  const first = tokens[0];
  if (first !== undefined) {
    const colon = /^([\w+#-]+):(.+)$/.exec(first);
    if (colon?.[1] !== undefined && colon[2] !== undefined && isPathLike(colon[2], { lenient: true })) {
      result.language = colon[1].toLowerCase();
      path ??= colon[2];
    } else if (isPathLike(first)) {
      path ??= first;
    } else if (first !== '') {
      result.language = first.replace(/^\./, '').toLowerCase();
      for (const token of tokens.slice(1)) {
        if (path !== undefined) break;
        if (LABEL_TOKEN.test(token) || token === '') continue;
        if (isPathLike(token, { lenient: true })) path = token;
      }
    }
  }
  if (path !== undefined) result.path = path;
  return result;
}

export interface HeaderPath {
  path: string;
  /**
   * The path came from a backticked name inside a prose sentence ("Now edit `vite.config.ts`:"),
   * which is right most of the time but wrong for "Open `index.html` in a browser:" + shell block.
   */
  weak: boolean;
}

const LABEL_PREFIX = /^(?:(?:new|updated?|create|created|modified|complete|full|edit|add)\s+)?(?:file|filename|file name|path|file path|filepath)\s*(?:\d+\s*)?(?:[:\-–—]\s*|\s+(?=\S))/i;

const HEADER_STRIPS: ((s: string) => string)[] = [
  (s) => s.replace(/^>\s*/, ''),
  (s) => s.replace(/^#{1,6}\s+/, ''),
  (s) => s.replace(/^[-*+]\s+/, ''),
  (s) => s.replace(/^\d+[.)]\s+/, ''),
  (s) => s.replace(/^(?:\/\/+|--|;+)\s*/, ''),
  (s) => s.replace(/^<!--\s*(.*?)\s*-->$/, '$1'),
  (s) => s.replace(/^\/\*+\s*(.*?)\s*\*+\/$/, '$1'),
  (s) => s.replace(/^\*\*(.*)\*\*$/, '$1').replace(/^__(.*)__$/, '$1'),
  (s) => s.replace(/^\*(.*)\*$/, '$1').replace(/^_(.*)_$/, '$1'),
  (s) => s.replace(/^`+(.*?)`+$/, '$1').replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'),
  (s) => s.replace(/\s*:$/, ''),
  (s) => s.replace(LABEL_PREFIX, ''),
  (s) => s.replace(/\s+\([^()]*\)$/, ''),
  (s) => s.replace(/^(\S+)\s+[—–-]{1,2}\s+.*$/, '$1'),
  (s) => s.trim(),
];

/** Finds a path on the line before a fence: `**src/a.ts**`, `### File: src/a.ts`, `- src/a.ts:`… */
export function pathFromHeaderLine(line: string): HeaderPath | null {
  let s = line.trim();
  if (s === '' || s.length > 300) return null;
  for (let round = 0; round < 12; round++) {
    const before = s;
    for (const strip of HEADER_STRIPS) s = strip(s);
    if (s === before) break;
  }
  if (isPathLike(s)) return { path: s, weak: false };

  // A sentence that ends with ":" and names exactly one file in backticks introduces that file.
  const sentence = line.trim().replace(/[*_]+$/, '');
  if (!sentence.endsWith(':')) return null;
  const named = new Set(
    [...sentence.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '').filter((t) => isPathLike(t)),
  );
  if (named.size !== 1) return null;
  const [path] = named;
  return path === undefined ? null : { path, weak: true };
}

// A path never starts with "*", so `[^\s*]` keeps `/\*+` and the path from competing for the same
// stars: with `\S+?` there, a line of a thousand stars took seconds to reject.
const FIRST_LINE_PATTERNS = [
  /^\s*(?:\/\/+|#|--|;+|%)\s+(?:(?:file|filename|path|filepath)\s*:\s*)?(\S+)\s*$/i,
  /^\s*\/\*+\s*(?:(?:file|filename|path|filepath)\s*:\s*)?([^\s*]\S*?)\s*\*+\/\s*$/i,
  /^\s*<!--\s*(?:(?:file|filename|path|filepath)\s*:\s*)?(\S+?)\s*-->\s*$/i,
  /^\s*\{\s*\/\*+\s*(?:(?:file|filename|path|filepath)\s*:\s*)?([^\s*]\S*?)\s*\*+\/\s*\}\s*$/i,
];

/** Longest first line that can be a path comment (paths are at most 255 characters). */
const MAX_FIRST_LINE = 300;

/** A block whose first line is only a comment naming a file: `// src/a.ts`, `# path: app.py`. */
export function pathFromFirstLine(line: string): string | null {
  // Model output is untrusted: a banner of stars or a minified first line must not cost seconds.
  if (line.length > MAX_FIRST_LINE) return null;
  for (const pattern of FIRST_LINE_PATTERNS) {
    const candidate = pattern.exec(line)?.[1];
    if (candidate !== undefined && isPathLike(candidate)) return candidate;
  }
  return null;
}

const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'terminal', 'powershell', 'ps', 'cmd', 'bat', 'shell-session', 'sh-session', 'fish']);
const SHELL_EXTENSIONS = /\.(sh|bash|zsh|fish|ps1|psm1|bat|cmd)$/i;

/**
 * A shell block under a line that names some other file is a command to run ("Open
 * `index.html`:" + `open index.html`), not that file's content.
 */
export function isCommandBlockFor(language: string | undefined, path: string): boolean {
  return language !== undefined && SHELL_LANGUAGES.has(language) && !SHELL_EXTENSIONS.test(path);
}

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', mts: 'ts', cts: 'ts',
  py: 'python', pyi: 'python', rb: 'ruby', rs: 'rust', go: 'go', md: 'markdown', mdx: 'mdx',
  yml: 'yaml', yaml: 'yaml', sh: 'bash', json: 'json', html: 'html', css: 'css', scss: 'scss',
  sql: 'sql', toml: 'toml', java: 'java', kt: 'kotlin', cs: 'csharp', php: 'php', vue: 'vue',
  svelte: 'svelte', xml: 'xml', svg: 'xml', txt: 'text',
};

/** A fence language for a path, for writing blocks in the project's own format. */
export function languageForPath(path: string): string {
  const name = path.split('/').pop() ?? path;
  if (KNOWN_NAMES.has(name)) return name.toLowerCase();
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext === undefined) return 'text';
  return LANGUAGE_BY_EXTENSION[ext] ?? (/^[a-z][a-z0-9]*$/.test(ext) ? ext : 'text');
}
