/** One file recovered from an engine's answer. */
export interface ParsedFile {
  /** Sanitised, project-relative path with `/` separators (see `sanitizePath`). */
  path: string;
  /** File content with LF line endings. */
  content: string;
  /** Language tag from the fence, lower-cased, when the model gave one. */
  language?: string;
  /**
   * The answer ended (or the next file started) before this block's closing fence or `</file>`
   * tag: the content is a prefix of what the model meant. Never save such a file;
   * `detectIncomplete` reports it.
   */
  truncated?: boolean;
}

/** Kinds of problem met while turning an answer into files. */
export type FileProblemKind =
  /** A block's path failed `sanitizePath`; the block was dropped. */
  | 'unsafe-path'
  /** Code blocks without any recognisable file path; they were ignored. */
  | 'missing-path'
  /** The same path appeared twice; the later block won. A warning, nothing was lost from the end. */
  | 'duplicate-path'
  /** A block was cut off before its end; see `ParsedFile.truncated`. */
  | 'truncated'
  /** A file's content is clearly unfinished (placeholder comment, cut-off code). */
  | 'incomplete'
  /** A file exceeds `MAX_FILE_BYTES`. */
  | 'file-too-large'
  /** The project would exceed `MAX_FILES`. */
  | 'too-many-files'
  /** The project would exceed `MAX_PROJECT_BYTES`. */
  | 'project-too-large';

export interface FileProblem {
  kind: FileProblemKind;
  /** The file concerned, when there is one. */
  path?: string;
  /** A sentence a person or an engine can act on. */
  message: string;
}
