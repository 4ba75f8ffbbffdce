/**
 * Picks which existing files an engine sees when its context cannot hold them all: the most
 * relevant first (entry points and manifests, then files sharing words with the request), whole
 * files only; the rest are listed by path so the engine knows they exist.
 */
import { formatFileBlock } from './file-blocks.js';

const ALWAYS_FIRST = /(^|\/)(package\.json|README\.md|index\.html|main\.(t|j)sx?|app\.(t|j)sx?|index\.(t|j)sx?)$/i;

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? []);
}

export function relevance(path: string, content: string, query: Set<string>): number {
  let score = ALWAYS_FIRST.test(path) ? 1000 : 0;
  const pathWords = words(path.replace(/[/._-]/g, ' '));
  for (const w of pathWords) if (query.has(w)) score += 50;
  const body = words(content.slice(0, 20_000));
  for (const w of query) if (body.has(w)) score += 5;
  // Smaller files are cheaper to include; prefer them when relevance ties.
  return score - content.length / 100_000;
}

export interface BudgetedFiles {
  /** Files given in full, most relevant first, as `path` -> content. */
  included: Array<[string, string]>;
  /** Files left out for lack of room (paths only). */
  omitted: string[];
}

export function selectFilesForContext(files: Record<string, string>, query: string, budgetChars: number): BudgetedFiles {
  const q = words(query);
  const ranked = Object.entries(files).sort(([pa, ca], [pb, cb]) => relevance(pb, cb, q) - relevance(pa, ca, q));
  const included: Array<[string, string]> = [];
  const omitted: string[] = [];
  let used = 0;
  for (const [path, content] of ranked) {
    const cost = content.length + path.length + 16;
    if (used + cost <= budgetChars) {
      included.push([path, content]);
      used += cost;
    } else {
      omitted.push(path);
    }
  }
  return { included, omitted };
}

/** Files as fenced blocks in the project's own format, plus the list of omitted paths. */
export function formatFilesForPrompt(selection: BudgetedFiles): string {
  // The format the engines are asked to answer in, so a file they echo back parses as itself
  // (whatever fences its content holds, whatever its path looks like).
  const blocks = selection.included.map(([path, content]) => formatFileBlock(path, content, languageOf(path)).trimEnd());
  if (selection.omitted.length > 0) {
    blocks.push(`Other files (not shown for lack of room): ${selection.omitted.join(', ')}`);
  }
  return blocks.join('\n\n');
}

const LANGUAGES: Record<string, string> = {
  ts: 'ts', tsx: 'tsx', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', json: 'json', css: 'css', html: 'html',
  md: 'md', py: 'python', go: 'go', rs: 'rust', java: 'java', rb: 'ruby', php: 'php', yml: 'yaml', yaml: 'yaml',
  sh: 'bash', sql: 'sql', toml: 'toml', xml: 'xml', svg: 'svg', txt: 'text',
};

export function languageOf(path: string): string {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return LANGUAGES[ext] ?? 'text';
}

/** Characters of file content an engine can take: half its context, at ~4 characters per token. */
export function contextBudgetChars(contextTokens: number): number {
  return Math.max(8_000, Math.floor(contextTokens * 0.5 * 4));
}
