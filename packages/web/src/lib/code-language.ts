/**
 * CodeMirror's support for a file's language, found by its name (`src/App.tsx`, `Dockerfile`)
 * and loaded on demand: @codemirror/language-data knows about a hundred languages and loads each
 * grammar only when a file needs it. Import this module only from lazily loaded code, so the
 * editor stays out of the home page's bundle.
 */
import type { Extension } from '@codemirror/state';
import { languages } from '@codemirror/language-data';
import { LanguageDescription } from '@codemirror/language';

/** The language of `path`, or null for plain text. */
export async function languageFor(path: string): Promise<Extension | null> {
  const name = path.split('/').pop() ?? path;
  const description = LanguageDescription.matchFilename(languages, name);
  if (!description) return null;
  return description.support ?? (await description.load());
}
