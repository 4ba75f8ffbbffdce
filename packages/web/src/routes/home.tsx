import { Gauge, PiggyBank, ShieldCheck, Sparkles } from 'lucide-react';
import { Card } from '../components/card';

const claims = [
  { icon: Gauge, value: '2.5x', label: 'faster results' },
  { icon: PiggyBank, value: '85%', label: 'cost savings' },
  { icon: ShieldCheck, value: 'Superior', label: 'code quality' },
] as const;

/** Home (/): the build screen. The shell shows its heading; a later change adds the builder. */
export function HomePage() {
  return (
    <div className="flex flex-col gap-8">
      <section className="flex flex-col gap-3">
        <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-brand/10 px-2.5 py-1 text-xs font-medium text-brand-strong">
          <Sparkles className="h-3.5 w-3.5" aria-hidden />
          Staged AI engines
        </span>
        <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Build with the pack</h1>
        <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
          Describe a project idea and Wolfpack&apos;s engines plan, build, check and polish it into a
          multi-file project you can download, copy to Replit or push to GitHub.
        </p>
      </section>
      <div className="grid gap-4 sm:grid-cols-3">
        {claims.map(({ icon: Icon, value, label }) => (
          <Card key={label} className="flex items-center gap-4 p-5">
            <span className="grid h-10 w-10 place-items-center rounded-lg bg-brand/10 text-brand-strong">
              <Icon className="h-5 w-5" aria-hidden />
            </span>
            <div>
              <p className="text-lg font-semibold">{value}</p>
              <p className="text-sm text-zinc-500 dark:text-zinc-400">{label}</p>
            </div>
          </Card>
        ))}
      </div>
      <Card className="grid min-h-64 place-items-center border-dashed p-8 text-center" data-testid="build-placeholder">
        <div className="flex max-w-md flex-col items-center gap-2">
          <p className="font-medium">The build screen is coming soon</p>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            Prompt, attachments, AI Enhance and the live pipeline will appear here.
          </p>
        </div>
      </Card>
    </div>
  );
}
