import { FileCode2, Info } from 'lucide-react';
import { memo, useMemo, type ReactNode } from 'react';
import { formatBytes, highlightCode, HIGHLIGHT_LIMIT_BYTES, languageForPath, languageLabel, utf8Length, type Token } from '../lib/highlight';
import { CopyButton } from './copy-button';

export interface CodeViewerProps {
  path: string;
  content: string;
}

/** Line numbers are left out above this many lines; the text itself is always shown. */
const GUTTER_MAX_LINES = 50_000;

function lineCount(text: string): number {
  if (text.length === 0) return 1;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  // A final newline ends the last line rather than starting an empty one.
  return text.endsWith('\n') ? lines - 1 : lines;
}

function renderTokens(tokens: readonly Token[], key = ''): ReactNode[] {
  // Strings become text nodes, which React escapes: nothing in a file is ever parsed as markup.
  return tokens.map((token, index) =>
    typeof token === 'string' ? (
      token
    ) : (
      <span key={`${key}${index}`} className={token.className}>
        {renderTokens(token.children, `${key}${index}.`)}
      </span>
    ),
  );
}

/**
 * One file's content as text with syntax highlighting and line numbers. Files above 200 KB are
 * shown plain (highlighting them could freeze the page), with a note saying so.
 */
export const CodeViewer = memo(function CodeViewer({ path, content }: CodeViewerProps) {
  const language = languageForPath(path);
  const bytes = useMemo(() => utf8Length(content), [content]);
  const tokens = useMemo(() => highlightCode(content, language), [content, language]);
  const lines = useMemo(() => lineCount(content), [content]);
  const gutter = useMemo(
    () => (lines <= GUTTER_MAX_LINES ? Array.from({ length: lines }, (_, i) => i + 1).join('\n') : null),
    [lines],
  );
  const plainBecauseLarge = language !== undefined && bytes > HIGHLIGHT_LIMIT_BYTES;

  return (
    <section className="flex min-w-0 flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900" aria-label={`Content of ${path}`} data-testid="file-viewer">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 px-4 py-2.5 dark:border-zinc-800">
        <div className="flex min-w-0 items-center gap-2">
          <FileCode2 className="h-4 w-4 shrink-0 text-brand" aria-hidden />
          <h2 className="truncate font-mono text-sm font-medium" data-testid="viewer-path" title={path}>
            {path}
          </h2>
        </div>
        <div className="flex items-center gap-3">
          <span className="hidden text-xs text-zinc-500 tabular-nums sm:inline dark:text-zinc-400">
            {languageLabel(language)} · {lines.toLocaleString('en-US')} {lines === 1 ? 'line' : 'lines'} · {formatBytes(bytes)}
          </span>
          <CopyButton text={() => content} what="the file" data-testid="copy-file" aria-label={`Copy ${path}`} />
        </div>
      </header>
      {plainBecauseLarge ? (
        <p className="flex items-center gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-xs text-amber-900 dark:border-amber-500/30 dark:bg-amber-500/10 dark:text-amber-200" data-testid="highlight-skipped">
          <Info className="h-3.5 w-3.5 shrink-0" aria-hidden />
          This file is {formatBytes(bytes)}, so it is shown without syntax highlighting to keep the page responsive.
        </p>
      ) : null}
      <div className="code-view max-h-[70vh] min-h-64 overflow-auto bg-zinc-50/60 dark:bg-zinc-950/60" tabIndex={0} aria-label="File content">
        <div className="flex min-w-max font-mono text-[13px] leading-6">
          {gutter !== null ? (
            <pre
              aria-hidden
              className="sticky left-0 shrink-0 border-r border-zinc-200 bg-zinc-50 px-3 py-3 text-right text-zinc-400 select-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-600"
            >
              {gutter}
            </pre>
          ) : null}
          <pre className="flex-1 px-4 py-3 text-zinc-800 dark:text-zinc-200" data-testid="file-content" data-highlighted={tokens ? 'true' : 'false'}>
            <code>
              {content.length === 0 ? (
                <span className="text-zinc-400 italic">This file is empty.</span>
              ) : tokens ? (
                renderTokens(tokens)
              ) : (
                content
              )}
            </code>
          </pre>
        </div>
      </div>
    </section>
  );
});
