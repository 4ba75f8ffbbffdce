import type { ReactNode } from 'react';
import { Card } from './card';
import { CopyButton } from './copy-button';

export interface CapsuleTextBlockProps {
  title: string;
  icon: ReactNode;
  /** Shown as text (React escapes it): prompts come from users and are never parsed as markup. */
  text: string | null | undefined;
  /** Said when there is no text. */
  empty: string;
  testId: string;
}

/** A prompt of the session as plain, wrapped, copyable text. */
export function CapsuleTextBlock({ title, icon, text, empty, testId }: CapsuleTextBlockProps) {
  const value = text?.trim() ? text : '';
  return (
    <Card className="flex min-w-0 flex-col overflow-hidden">
      <header className="flex items-center justify-between gap-3 border-b border-zinc-100 px-4 py-2.5 dark:border-zinc-800">
        <h2 className="flex items-center gap-2 text-sm font-semibold">
          <span className="text-brand">{icon}</span>
          {title}
        </h2>
        {value ? <CopyButton text={() => value} what={`the ${title.toLowerCase()}`} aria-label={`Copy the ${title.toLowerCase()}`} /> : null}
      </header>
      <pre
        className="max-h-72 overflow-auto px-4 py-3 font-sans text-sm break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200"
        data-testid={testId}
      >
        {value || <span className="text-zinc-500 italic dark:text-zinc-400">{empty}</span>}
      </pre>
    </Card>
  );
}
