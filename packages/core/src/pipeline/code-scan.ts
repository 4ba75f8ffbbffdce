/**
 * A small lexer that knows just enough of each language family to tell code from comments and
 * string literals. Used to find placeholder comments ("// ... existing code ...") without
 * matching the same words inside a string, and brackets still open at the end of a file, which
 * is how a cut-off answer shows. It is deliberately forgiving: single-line strings end at a line
 * break, so one misread character cannot swallow the rest of the file.
 */

export type LanguageFamily =
  | 'js'
  | 'c'
  | 'rust'
  | 'go'
  | 'css'
  | 'scss'
  | 'json'
  | 'jsonc'
  | 'python'
  | 'sql'
  | 'php'
  | 'hash'
  | 'markup'
  | 'prose';

const FAMILY_BY_EXTENSION: Record<string, LanguageFamily> = {};
const register = (family: LanguageFamily, exts: string): void => {
  for (const ext of exts.split(' ')) FAMILY_BY_EXTENSION[ext] = family;
};
register('js', 'js jsx ts tsx mjs cjs mts cts');
register('c', 'c h cc cpp cxx hpp hh java kt kts swift cs dart scala groovy gradle m mm proto zig sol v');
register('rust', 'rs');
register('go', 'go');
register('css', 'css');
register('scss', 'scss less sass styl');
register('json', 'json webmanifest');
register('jsonc', 'jsonc json5');
register('python', 'py pyi pyw');
register('sql', 'sql prisma');
register('php', 'php');
register('hash', 'sh bash zsh fish yml yaml toml ini cfg conf env rb r pl pm tf hcl nix dockerfile mk cmake ps1 gitignore dockerignore properties');
register('markup', 'html htm xml svg vue svelte astro ejs hbs handlebars njk jinja jinja2 j2 liquid twig erb xhtml');
register('prose', 'md mdx markdown txt rst adoc text log csv tsv');

const HASH_NAMES = new Set(['Dockerfile', 'Containerfile', 'Makefile', 'GNUmakefile', 'Procfile', 'Gemfile', 'Rakefile', 'Vagrantfile', 'Brewfile', 'Pipfile', 'Caddyfile', 'Justfile', 'justfile']);

/** Which lexer a file gets, from its name. Unknown kinds are treated as prose (no code checks). */
export function familyFor(path: string): LanguageFamily {
  const name = path.split('/').pop() ?? path;
  if (HASH_NAMES.has(name) || /^\.env(\..+)?$/.test(name)) return 'hash';
  if (/^(tsconfig|jsconfig)(\..*)?\.json$/i.test(name) || /^\.(eslintrc|babelrc|swcrc)(\.json)?$/.test(name)) return 'jsonc';
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext !== undefined ? FAMILY_BY_EXTENSION[ext] : undefined) ?? 'prose';
}

/** Families whose files are code, where a line that is only `...` cannot be prose. */
export function isCodeFamily(family: LanguageFamily): boolean {
  return family !== 'prose' && family !== 'markup' && family !== 'hash';
}

export interface Comment {
  /** 1-based line of the comment's text. */
  line: number;
  /** The text without comment markers; one entry per line for block comments. */
  text: string;
}

export interface CodeScan {
  comments: Comment[];
  /** Brackets opened and never closed, outermost first. Empty for families without bracket rules. */
  unclosed: { char: string; line: number }[];
  /** A multi-line string, template or block comment that was still open at the end. */
  unterminated: { what: string; line: number } | null;
  /** 1-based lines that start inside a string or block comment. */
  literalLines: Set<number>;
}

interface Syntax {
  lineComments: string[];
  block: boolean;
  quotes: string;
  backtick: 'template' | 'raw' | null;
  triple: string[];
  regex: boolean;
  brackets: boolean;
}

const SYNTAX: Partial<Record<LanguageFamily, Syntax>> = {
  js: { lineComments: ['//'], block: true, quotes: `'"`, backtick: 'template', triple: [], regex: true, brackets: true },
  c: { lineComments: ['//'], block: true, quotes: `'"`, backtick: null, triple: ['"""', "'''"], regex: false, brackets: true },
  rust: { lineComments: ['//'], block: true, quotes: '"', backtick: null, triple: [], regex: false, brackets: true },
  go: { lineComments: ['//'], block: true, quotes: `'"`, backtick: 'raw', triple: [], regex: false, brackets: true },
  css: { lineComments: [], block: true, quotes: `'"`, backtick: null, triple: [], regex: false, brackets: true },
  scss: { lineComments: ['//'], block: true, quotes: `'"`, backtick: null, triple: [], regex: false, brackets: true },
  json: { lineComments: [], block: false, quotes: '"', backtick: null, triple: [], regex: false, brackets: true },
  jsonc: { lineComments: ['//'], block: true, quotes: '"', backtick: null, triple: [], regex: false, brackets: true },
  python: { lineComments: ['#'], block: false, quotes: `'"`, backtick: null, triple: ['"""', "'''"], regex: false, brackets: true },
  sql: { lineComments: ['--'], block: true, quotes: `'"`, backtick: null, triple: [], regex: false, brackets: true },
  php: { lineComments: ['//', '#'], block: true, quotes: `'"`, backtick: null, triple: [], regex: false, brackets: true },
};

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
// After these a `/` starts a regular expression rather than a division.
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

/** Scans a file of a code family; for hash, markup and prose only comments are found. */
export function scanCode(content: string, family: LanguageFamily): CodeScan {
  const syntax = SYNTAX[family];
  if (!syntax) return { comments: lineComments(content, family), unclosed: [], unterminated: null, literalLines: new Set() };
  return new Lexer(content, syntax, family).run();
}

/** Comments of the families without a lexer, found line by line. */
function lineComments(content: string, family: LanguageFamily): Comment[] {
  const comments: Comment[] = [];
  const lines = content.split('\n');
  if (family === 'markup' || family === 'prose') {
    for (const m of content.matchAll(/<!--([\s\S]*?)-->/g)) {
      const startLine = content.slice(0, m.index).split('\n').length;
      (m[1] ?? '').split('\n').forEach((text, k) => comments.push({ line: startLine + k, text }));
    }
  }
  lines.forEach((line, k) => {
    const t = line.trim();
    if (family === 'hash') {
      // `#` starts a comment at a line start or after a space (not in `color: #fff` or `$#`).
      const m = /(?:^|\s)#(?!!)(.*)$/.exec(line);
      if (m) comments.push({ line: k + 1, text: m[1] ?? '' });
    } else if (family === 'markup' && /^(\/\/|\/\*|\{\/\*)/.test(t)) {
      // Script parts of Vue/Svelte/Astro files: single-line JS comments are enough here.
      comments.push({ line: k + 1, text: t.replace(/^\{?\/[/*]+|\*+\/\}?$/g, '') });
    }
  });
  return comments;
}

class Lexer {
  private i = 0;
  private line = 1;
  private readonly comments: Comment[] = [];
  private readonly stack: { char: string; line: number; template?: boolean }[] = [];
  private readonly literalLines = new Set<number>();
  private unterminated: { what: string; line: number } | null = null;
  private prev = '';

  constructor(
    private readonly src: string,
    private readonly syntax: Syntax,
    private readonly family: LanguageFamily,
  ) {}

  run(): CodeScan {
    const { src, syntax } = this;
    while (this.i < src.length) {
      const c = src[this.i] ?? '';
      if (c === '\n') {
        this.line++;
        this.i++;
        continue;
      }
      if (/\s/.test(c)) {
        this.i++;
        continue;
      }
      const lineComment = syntax.lineComments.find((m) => src.startsWith(m, this.i));
      // In CSS-like files `//` inside `url(http://…)` is not a comment.
      if (lineComment && !(this.family === 'scss' && src[this.i - 1] === ':')) {
        this.readLineComment(lineComment.length);
        continue;
      }
      if (syntax.block && src.startsWith('/*', this.i)) {
        this.readBlockComment();
        continue;
      }
      const triple = syntax.triple.find((q) => src.startsWith(q, this.i));
      if (triple) {
        this.readMultiline(triple, true, 'string');
        continue;
      }
      if (c === '`' && syntax.backtick === 'raw') {
        this.readMultiline('`', false, 'raw string');
        continue;
      }
      if (c === '`' && syntax.backtick === 'template') {
        this.i++;
        this.readTemplate(this.line);
        continue;
      }
      if (c === "'" && this.family === 'rust') {
        this.skipRustQuote();
        continue;
      }
      if (syntax.quotes.includes(c)) {
        this.readString(c);
        continue;
      }
      if (c === '/' && syntax.regex && this.regexAllowed()) {
        this.readRegex();
        continue;
      }
      if (/[\w$]/.test(c)) {
        const m = /^[\w$]+/.exec(src.slice(this.i, this.i + 200));
        const word = m?.[0] ?? c;
        this.prev = word;
        this.i += word.length;
        continue;
      }
      if (syntax.brackets) this.bracket(c);
      this.prev = c;
      this.i++;
    }
    return {
      comments: this.comments,
      unclosed: this.stack.map(({ char, line }) => ({ char, line })),
      unterminated: this.unterminated,
      literalLines: this.literalLines,
    };
  }

  private bracket(c: string): void {
    if (OPENERS[c] !== undefined) {
      this.stack.push({ char: c, line: this.line });
      return;
    }
    const opener = CLOSERS[c];
    if (opener === undefined) return;
    const top = this.stack[this.stack.length - 1];
    if (top?.template && c === '}') {
      this.stack.pop();
      this.readTemplate(top.line);
      return;
    }
    // A stray closer is a syntax error for the parser to report; for truncation only what is
    // still open at the end matters, so recover by closing up to the matching opener.
    const at = this.stack.map((s) => s.char).lastIndexOf(opener);
    if (at >= 0 && !this.stack.slice(at).some((s) => s.template)) this.stack.length = at;
  }

  private newline(): void {
    this.line++;
    this.literalLines.add(this.line);
  }

  private readLineComment(markerLength: number): void {
    const end = this.src.indexOf('\n', this.i);
    const stop = end === -1 ? this.src.length : end;
    this.comments.push({ line: this.line, text: this.src.slice(this.i + markerLength, stop) });
    this.i = stop;
  }

  private readBlockComment(): void {
    const startLine = this.line;
    const end = this.src.indexOf('*/', this.i + 2);
    const stop = end === -1 ? this.src.length : end;
    const body = this.src.slice(this.i + 2, stop);
    body.split('\n').forEach((text, k) => {
      this.comments.push({ line: startLine + k, text: text.replace(/^\s*\*+(?!\/)/, '').replace(/^\*+/, '') });
      if (k > 0) this.newline();
    });
    if (end === -1) this.unterminated ??= { what: 'block comment', line: startLine };
    this.i = end === -1 ? stop : end + 2;
  }

  private readString(quote: string): void {
    this.i++;
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '\\') this.i += 2;
      else if (c === quote) {
        this.i++;
        break;
      } else if (c === '\n') break;
      else this.i++;
    }
    this.prev = 'string';
  }

  private readMultiline(delimiter: string, escapes: boolean, what: string): void {
    const startLine = this.line;
    this.i += delimiter.length;
    while (this.i < this.src.length) {
      if (escapes && this.src[this.i] === '\\') {
        if (this.src[this.i + 1] === '\n') this.newline();
        this.i += 2;
        continue;
      }
      if (this.src.startsWith(delimiter, this.i)) {
        this.i += delimiter.length;
        this.prev = 'string';
        return;
      }
      if (this.src[this.i] === '\n') this.newline();
      this.i++;
    }
    this.unterminated ??= { what, line: startLine };
  }

  /** Reads template text up to the closing backtick or a `${`, which hands back to code. */
  private readTemplate(startLine: number): void {
    while (this.i < this.src.length) {
      const c = this.src[this.i];
      if (c === '\\') {
        if (this.src[this.i + 1] === '\n') this.newline();
        this.i += 2;
      } else if (c === '`') {
        this.i++;
        this.prev = 'string';
        return;
      } else if (c === '$' && this.src[this.i + 1] === '{') {
        this.stack.push({ char: '{', line: startLine, template: true });
        this.i += 2;
        this.prev = '{';
        return;
      } else {
        if (c === '\n') this.newline();
        this.i++;
      }
    }
    this.unterminated ??= { what: 'template literal', line: startLine };
  }

  private regexAllowed(): boolean {
    const next = this.src[this.i + 1];
    if (next === '/' || next === '*') return false;
    return this.prev === '' || /^[(,=:[!&|?{};+\-*%<>~^]$/.test(this.prev) || REGEX_AFTER_WORD.has(this.prev);
  }

  private readRegex(): void {
    let inClass = false;
    let j = this.i + 1;
    while (j < this.src.length) {
      const c = this.src[j];
      if (c === '\n') {
        // Not a regex after all (a division the heuristic misjudged): treat `/` as punctuation.
        this.prev = '/';
        this.i++;
        return;
      }
      if (c === '\\') j += 2;
      else if (c === '[') {
        inClass = true;
        j++;
      } else if (c === ']') {
        inClass = false;
        j++;
      } else if (c === '/' && !inClass) break;
      else j++;
    }
    this.i = j + 1;
    this.prev = 'regex';
  }

  /** Rust uses `'` for char literals and for lifetimes (`&'a str`), which never close. */
  private skipRustQuote(): void {
    const m = /^'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'/.exec(this.src.slice(this.i, this.i + 12));
    this.i += m ? m[0].length : 1;
    this.prev = 'string';
  }
}
