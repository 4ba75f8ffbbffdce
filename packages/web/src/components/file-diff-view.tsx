/**
 * One file's change as CodeMirror's unified merge view: the newer text with the older one's lines
 * shown deleted above what replaced them, highlighted in the file's language, read-only. Loaded
 * only with React.lazy (see version-diff.tsx): CodeMirror stays out of every other page's bundle.
 */
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { unifiedMergeView } from '@codemirror/merge';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, highlightSpecialChars, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useTheme } from '../hooks/use-theme';
import { languageFor } from '../lib/code-language';

export interface FileDiffViewProps {
  path: string;
  /** The older text; null when the file is new. */
  before: string | null;
  /** The newer text; null when the file was removed. */
  after: string | null;
}

/** Unchanged runs longer than this many lines fold into a "n unchanged lines" bar, 3 kept either side. */
const COLLAPSE = { margin: 3, minSize: 6 };

const frame = EditorView.theme({
  '&': { fontSize: '12.5px', maxHeight: '36rem' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
});

export default function FileDiffView({ path, before, after }: FileDiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const dark = useTheme().theme === 'dark';

  useEffect(() => {
    if (!host.current) return;
    const language = new Compartment();
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: after ?? '',
        extensions: [
          lineNumbers(),
          highlightSpecialChars(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          frame,
          dark ? oneDark : [],
          language.of([]),
          unifiedMergeView({
            original: before ?? '',
            mergeControls: false,
            collapseUnchanged: COLLAPSE,
            // A removed file's lines are all deletions: highlighting them as code still helps reading.
            syntaxHighlightDeletions: true,
          }),
        ],
      }),
    });
    let live = true;
    languageFor(path).then(
      (support) => {
        if (live && support) view.dispatch({ effects: language.reconfigure(support) });
      },
      // A grammar that fails to load leaves the file as plain text, which is still all there.
      () => undefined,
    );
    return () => {
      live = false;
      view.destroy();
    };
  }, [path, before, after, dark]);

  return <div ref={host} className="overflow-hidden" data-testid="file-diff-view" data-path={path} />;
}
