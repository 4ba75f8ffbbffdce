/**
 * The text of the file open in the editor against the version it was opened on. Saving sends
 * `version` as expectedVersion, so the server refuses a write over a change the editor never saw;
 * the user's text is never replaced behind their back, only when they choose to reload.
 */

/** Files above this open read-only: the server takes no file larger (core's MAX_FILE_BYTES, 1 MiB). */
export const EDITABLE_MAX_BYTES = 1024 * 1024;

export interface FileDraft {
  /** The project's version the editor's file was read from; undefined from a server that does not say. */
  version: number | undefined;
  /** The file's text in that version. */
  base: string;
  /** The text in the editor. */
  text: string;
  /** Bumped whenever `text` is put into the editor from outside (a reload), not typed. */
  revision: number;
}

export type FileDraftAction =
  /** The user typed. */
  | { type: 'typed'; text: string }
  /** A change of ours made `version`, where the file reads `content`. */
  | { type: 'saved'; version: number; content: string }
  /** The project was read again: its file is taken over unless the user has changes of their own. */
  | { type: 'server'; version: number | undefined; content: string }
  /** The user chose the project's current file over their text. */
  | { type: 'reload'; version: number | undefined; content: string };

export function openDraft(version: number | undefined, content: string): FileDraft {
  return { version, base: content, text: content, revision: 0 };
}

export function isDirty(draft: FileDraft): boolean {
  return draft.text !== draft.base;
}

export function fileDraftReducer(draft: FileDraft, action: FileDraftAction): FileDraft {
  switch (action.type) {
    case 'typed':
      return draft.text === action.text ? draft : { ...draft, text: action.text };
    case 'saved':
      // What was typed while the request ran stays, and stays unsaved.
      return { ...draft, version: action.version, base: action.content };
    case 'server':
      if (action.version === draft.version || isDirty(draft)) return draft;
      return replaceText(draft, action.version, action.content);
    case 'reload':
      return replaceText(draft, action.version, action.content);
  }
}

function replaceText(draft: FileDraft, version: number | undefined, content: string): FileDraft {
  const revision = draft.text === content ? draft.revision : draft.revision + 1;
  return { version, base: content, text: content, revision };
}
