/**
 * Models shorten files they consider "unchanged" with placeholder comments, and answers get cut off
 * at the token limit. Saving either would silently destroy code, so such files are never saved:
 * the caller sends them back for completion with the reason given here. False positives are
 * costly too (a correct file bounced forever), so every rule errs on the side of "complete".
 */
import { familyFor, isCodeFamily, scanCode, type CodeScan, type LanguageFamily } from './code-scan.js';
import { scanModule } from './scan-module.js';

const ELLIPSIS = /\.{3}|…/;
const MAX_PLACEHOLDER_WORDS = 12;

const PLACEHOLDER_PHRASES: RegExp[] = [
  /^(?:the )?(?:rest|remainder) of\b/,
  /^remaining (?:code|implementation|methods|functions|content|styles|logic|file)\b/,
  /\b(?:existing|previous|original|other|remaining|more|additional|same) (?:code|imports?|styles?|logic|implementation|methods?|functions?|routes?|components?|content|tests?|properties|fields|helpers?|handlers?|endpoints?|cases|rules|markup|sections?|config(?:uration)?|types|exports?|hooks?|reducers?|actions?|queries|models?|views?|utils|elements?|items?)\b.*\b(?:unchanged|remains?|stays?|here|goes|go|omitted|as before|as is|kept|same|similar|etc|follows?|below|above)\b/,
  /\bfor brevity\b/,
  /\bsame as (?:before|above|previous|original|the original)\b/,
  /^(?:(?:everything else|all else|the rest|rest|code|file|content|implementation|remaining code) )?(?:(?:remains?|stays?|is|are) )?unchanged\b/,
  /\btodo:? ?(?:implement|add|complete|fill in|finish|write)(?: the)? (?:rest|remaining|remainder|other)\b/,
  /\b(?:implementation|code|logic|your code|content|more code|other code) (?:goes|go) here\b/,
  /\b(?:keep|keeping|retain) (?:the )?(?:existing|previous|original|rest)\b/,
];

// Words that, next to an ellipsis, mark elided code: "... existing code ...", "more routes …".
const ELLIPSIS_KEYWORDS =
  /\b(?:existing|previous|original|remaining|rest|unchanged|omitted|(?:other|more) (?:code|methods|functions|routes|components|fields|properties|cases|handlers|endpoints|imports|styles|exports|tests|files|elements|items))\b/;

/** Is a comment's text (markers removed) a stand-in for code the model did not write? */
export function isPlaceholderComment(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return false;
  const lower = trimmed.toLowerCase().replace(/\s+/g, ' ');
  const words = lower
    .replace(/\.{3,}|…/g, ' ')
    .replace(/[\s()[\]{}:;,.!*#/<>-]+/g, ' ')
    .trim();
  const hasEllipsis = ELLIPSIS.test(trimmed);
  if (hasEllipsis && words === '') return true;
  // "... existing code", "… (remaining code)"; "...args" without a space is about spread syntax.
  if (/^(?:\.{3}|…)\s/.test(trimmed) || /^(?:\.{3}|…)\(/.test(trimmed)) return true;
  // Placeholders are terse ("rest of code unchanged"); a long sentence that merely mentions such
  // words is an explanation, and bouncing a correct file forever costs more than missing one.
  if (words.split(' ').length > MAX_PLACEHOLDER_WORDS) return false;
  if (hasEllipsis && ELLIPSIS_KEYWORDS.test(words)) return true;
  return PLACEHOLDER_PHRASES.some((p) => p.test(words));
}

const LONE_ELLIPSIS = /^\s*(?:\.{3}|…)\s*$/;
// "... (remaining code)", "... rest unchanged": needs a space or "(" so `...rest` spread is fine.
const ELLIPSIS_PROSE_LINE = /^\s*(?:\.{3}|…)(?:\s+|\s*\(\s*)(?:the )?(?:rest|remaining|existing|more|other|same|previous|unchanged|omitted|code|etc)\b/i;

export interface IncompleteCandidate {
  path: string;
  content: string;
  truncated?: boolean | undefined;
}

function quote(text: string): string {
  const t = text.trim();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function placeholderReason(file: IncompleteCandidate, family: LanguageFamily, scan: CodeScan): string | null {
  for (const comment of scan.comments) {
    if (isPlaceholderComment(comment.text)) {
      const lineText = file.content.split('\n')[comment.line - 1] ?? comment.text;
      return `line ${comment.line} is a placeholder ("${quote(lineText)}") instead of real code; write the complete file`;
    }
  }
  if (!isCodeFamily(family)) return null;
  const isStub = file.path.endsWith('.pyi');
  const lines = file.content.split('\n');
  let loneEllipsisLine = 0;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] ?? '';
    if (scan.literalLines.has(k + 1)) continue;
    if (ELLIPSIS_PROSE_LINE.test(line)) {
      return `line ${k + 1} is a placeholder ("${quote(line)}") instead of real code; write the complete file`;
    }
    if (!isStub && loneEllipsisLine === 0 && LONE_ELLIPSIS.test(line)) loneEllipsisLine = k + 1;
  }
  if (loneEllipsisLine === 0) return null;
  // In JSX a line of "…" can be text between tags; if the file parses, the ellipsis is content.
  if (family === 'js' && (scanModule(file.path, file.content)?.errors.length ?? 0) === 0) return null;
  return `line ${loneEllipsisLine} is only "..." where code was left out; write the complete file`;
}

function cutOffReason(file: IncompleteCandidate, family: LanguageFamily, scan: CodeScan): string | null {
  if (family === 'js') {
    // esbuild knows JS/TS/JSX exactly; only errors at the very end mean "cut off".
    const errors = scanModule(file.path, file.content)?.errors ?? [];
    const atEnd = errors.find((e) => /end of file|^Unterminated|to terminate/i.test(e.message));
    return atEnd ? `it ends mid-code (${atEnd.message}${atEnd.line === undefined ? '' : `, line ${atEnd.line}`}): the output was cut off` : null;
  }
  if (scan.unterminated) {
    return `it ends inside a ${scan.unterminated.what} opened on line ${scan.unterminated.line}: the output was cut off`;
  }
  const innermost = scan.unclosed[scan.unclosed.length - 1];
  if (innermost) {
    const n = scan.unclosed.length;
    return `it ends with ${n} unclosed bracket${n === 1 ? '' : 's'} (the last "${innermost.char}" opened on line ${innermost.line}): the output was cut off`;
  }
  if (family === 'prose' && /\.(md|mdx|markdown)$/i.test(file.path)) return unclosedFenceReason(file.content);
  if (family === 'markup') return unclosedTagReason(file.path, file.content);
  return null;
}

/** A Markdown file whose last code fence never closes was cut off. */
function unclosedFenceReason(content: string): string | null {
  let open: { char: string; length: number; line: number } | null = null;
  content.split('\n').forEach((line, k) => {
    const m = /^\s{0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    const marker = m?.[1];
    if (marker === undefined) return;
    if (open === null) open = { char: marker.charAt(0), length: marker.length, line: k + 1 };
    else if (marker.charAt(0) === open.char && marker.length >= open.length && (m?.[2] ?? '').trim() === '') open = null;
  });
  const still = open as { line: number } | null;
  return still ? `it ends inside a code fence opened on line ${still.line}: the output was cut off` : null;
}

/** A page that opens `<html>`, `<body>` or `<script>` and never closes it was cut off. */
function unclosedTagReason(path: string, content: string): string | null {
  const tags = /\.(vue|svelte|astro)$/i.test(path) ? ['template', 'script', 'style'] : ['html', 'body', 'script'];
  const text = content.replace(/<!--[\s\S]*?-->/g, '');
  for (const tag of tags) {
    const opened = (text.match(new RegExp(`<${tag}\\b`, 'gi')) ?? []).length;
    const closed = (text.match(new RegExp(`</${tag}\\s*>`, 'gi')) ?? []).length;
    if (opened > closed) return `<${tag}> is never closed: the output was cut off`;
  }
  return null;
}

/**
 * Says why a file is clearly unfinished, or null when it looks complete: cut off before its
 * closing fence, a placeholder comment such as `// ... existing code ...`, a line that is only
 * `...` in code (allowed in Markdown, plain text and `.pyi` stubs), or code that ends with open
 * brackets, strings or fences.
 */
export function detectIncomplete(file: IncompleteCandidate): string | null {
  if (file.truncated) return 'the answer ended before this file did: the output was cut off';
  const family = familyFor(file.path);
  const scan = scanCode(file.content, family);
  return placeholderReason(file, family, scan) ?? cutOffReason(file, family, scan);
}
