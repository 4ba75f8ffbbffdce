/**
 * The code editor of the Files tab: CodeMirror 6 with the file's language, the app's light or dark
 * look and Ctrl/Cmd-S to save. This module is only ever loaded with React.lazy, so CodeMirror
 * stays out of the home page's bundle (vite puts it in the 'codemirror' chunk).
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import {
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { languageFor } from '../lib/code-language';

export interface CodeEditorProps {
  path: string;
  /** The text shown when the editor opens, and again whenever `revision` changes. */
  value: string;
  /** Bumped by the owner to put `value` back into the editor (a reload), dropping what was typed. */
  revision: number;
  dark: boolean;
  onChange: (text: string) => void;
  onSave: () => void;
}

/**
 * The editing basics (CodeMirror's basicSetup without search and completion, whose packages are
 * not installed; the `codemirror` package here is CodeMirror 5's, not the v6 bundle).
 */
const essentials: Extension = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  dropCursor(),
  EditorState.allowMultipleSelections.of(true),
  indentOnInput(),
  syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
  bracketMatching(),
  rectangularSelection(),
  highlightActiveLine(),
  keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, indentWithTab]),
];

const layout = EditorView.theme({
  '&': { fontSize: '13px', maxHeight: '70vh', minHeight: '16rem' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.5rem' },
  '.cm-content, .cm-gutter': { minHeight: '16rem' },
  '&.cm-focused': { outline: 'none' },
});

export default function CodeEditor({ path, value, revision, dark, onChange, onSave }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const theme = useRef(new Compartment());
  // The view is made once per file: the latest handlers are read through refs.
  const handlers = useRef({ onChange, onSave });
  handlers.current = { onChange, onSave };
  const shownRevision = useRef(revision);

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          // Above basicSetup's keys, so Ctrl/Cmd-S saves instead of the browser's "Save page".
          Prec.highest(
            keymap.of([
              {
                key: 'Mod-s',
                preventDefault: true,
                run: () => {
                  handlers.current.onSave();
                  return true;
                },
              },
            ]),
          ),
          essentials,
          layout,
          language.current.of([]),
          theme.current.of(dark ? oneDark : []),
          EditorView.contentAttributes.of({ 'aria-label': `Content of ${path}` }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    let cancelled = false;
    // Grammars load on demand; until one arrives the file reads as plain text.
    languageFor(path).then(
      (support) => {
        if (!cancelled && support) editor.dispatch({ effects: language.current.reconfigure(support) });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      editor.destroy();
      view.current = null;
    };
    // One view per file: value and dark are applied by the effects below.
  }, [path]);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.current.reconfigure(dark ? oneDark : []) });
  }, [dark]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || shownRevision.current === revision) return;
    shownRevision.current = revision;
    if (editor.state.doc.toString() !== value) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [revision, value]);

  return <div ref={host} className="min-w-0 bg-white dark:bg-[#282c34]" data-testid="code-editor" data-path={path} />;
}
