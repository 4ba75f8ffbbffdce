import { FlaskConical } from 'lucide-react';

/** Says plainly that demo engines stand in for real ones, and how to configure real ones. */
export function DemoNotice({ notice }: { notice: string }) {
  return (
    <div
      className="flex items-start gap-3 rounded-xl border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950 dark:border-sky-500/30 dark:bg-sky-500/10 dark:text-sky-100"
      role="note"
      data-testid="demo-notice"
    >
      <FlaskConical className="mt-0.5 h-4 w-4 shrink-0 text-sky-600 dark:text-sky-300" aria-hidden />
      <p>{notice}</p>
    </div>
  );
}
