import { PawPrint } from 'lucide-react';

/** Placeholder targets: the spec names these links but not where they lead. */
const footerLinks = ['Documentation', 'API Status', 'Support', 'GitHub'] as const;

/** The footer on every page (spec core §2). */
export function SiteFooter() {
  return (
    <footer className="border-t border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-950">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-6 text-sm text-zinc-500 sm:flex-row sm:px-6 dark:text-zinc-400">
        <p className="flex items-center gap-2">
          <PawPrint className="h-4 w-4 text-brand" aria-hidden />
          <span>© {new Date().getFullYear()} Wolfpack. Built by the pack.</span>
        </p>
        <nav aria-label="Footer" className="flex flex-wrap items-center gap-x-6 gap-y-2">
          {footerLinks.map((label) => (
            <a key={label} href="#" className="transition-colors hover:text-zinc-900 dark:hover:text-zinc-100">
              {label}
            </a>
          ))}
        </nav>
      </div>
    </footer>
  );
}
