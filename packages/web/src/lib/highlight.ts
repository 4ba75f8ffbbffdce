/**
 * Syntax highlighting for the file viewer. lowlight runs highlight.js grammars but returns a tree
 * of spans and text instead of an HTML string, so the viewer builds React elements from it and
 * never parses markup: a generated file is always shown as text, whatever it contains.
 *
 * Only a few grammars are registered (the languages the pack generates most), and files above
 * {@link HIGHLIGHT_LIMIT_BYTES} are shown plain so a huge file cannot freeze the page.
 */
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { createLowlight } from 'lowlight';

const lowlight = createLowlight({ bash, css, javascript, json, markdown, python, sql, typescript, xml, yaml });

/** Files larger than this (UTF-8 bytes) are shown without highlighting. */
export const HIGHLIGHT_LIMIT_BYTES = 200 * 1024;

/** A registered grammar. */
export type Language = 'bash' | 'css' | 'javascript' | 'json' | 'markdown' | 'python' | 'sql' | 'typescript' | 'xml' | 'yaml';

const BY_EXTENSION: Record<string, Language> = {
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  css: 'css',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  py: 'python',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  sql: 'sql',
  yml: 'yaml',
  yaml: 'yaml',
};

const LABELS: Record<Language, string> = {
  bash: 'Shell',
  css: 'CSS',
  javascript: 'JavaScript',
  json: 'JSON',
  markdown: 'Markdown',
  python: 'Python',
  sql: 'SQL',
  typescript: 'TypeScript',
  xml: 'HTML / XML',
  yaml: 'YAML',
};

/** The grammar for a file, by its extension; undefined shows it as plain text. */
export function languageForPath(path: string): Language | undefined {
  const name = path.split('/').pop() ?? path;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

/** A person's name for the language, 'Plain text' when there is none. */
export function languageLabel(language: Language | undefined): string {
  return language ? LABELS[language] : 'Plain text';
}

/** UTF-8 size of `text` without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one 4-byte character.
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** '512 B', '3.4 KB', '1.2 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A highlighted token: text, or a span with highlight.js classes around more tokens. */
export type Token = string | { className: string; children: Token[] };

type HastRoot = ReturnType<typeof lowlight.highlight>;
type HastChild = HastRoot['children'][number];

function toTokens(nodes: readonly HastChild[]): Token[] {
  const out: Token[] = [];
  for (const node of nodes) {
    if (node.type === 'text') out.push(node.value);
    else if (node.type === 'element') {
      const raw = node.properties.className;
      const className = Array.isArray(raw) ? raw.map(String).join(' ') : typeof raw === 'string' ? raw : '';
      out.push({ className, children: toTokens(node.children as HastChild[]) });
    }
    // Comments, doctypes and raw nodes never come out of lowlight; anything else is dropped.
  }
  return out;
}

/**
 * Tokens of `code` in `language`, or undefined when it should be shown plain: no grammar, too
 * large, or the grammar failed on it.
 */
export function highlightCode(code: string, language: Language | undefined): Token[] | undefined {
  if (!language || code.length === 0 || utf8Length(code) > HIGHLIGHT_LIMIT_BYTES) return undefined;
  try {
    return toTokens(lowlight.highlight(language, code).children);
  } catch {
    return undefined;
  }
}
