import { PIPELINE_STAGES } from '@wolfpack/core';
import { ChevronDown, Coins, Gauge, PiggyBank, Repeat, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { marketingOpenStore } from '../lib/build-stores';
import { cn } from '../lib/cn';
import { Card } from './card';

const claims = [
  { icon: Gauge, value: '2.5x', label: 'faster results', detail: 'Five staged engines work the idea in sequence.' },
  { icon: PiggyBank, value: '85%', label: 'cost savings', detail: 'Compared with building the same project by hand.' },
  { icon: ShieldCheck, value: 'Superior', label: 'code quality', detail: 'Every file is checked before it is proven.' },
  { icon: Repeat, value: '80%', label: 'fewer iterations', detail: 'Fewer rounds of fixing before the project works.' },
  { icon: Coins, value: '$2–3', label: 'for a typical project', detail: 'Down from $15–20 when built without the pack.' },
] as const;

/** True when the visitor came from a QR code: the section is then forced open. */
export function isQrVisit(params: URLSearchParams): boolean {
  return params.get('ref') === 'qr' || params.get('source') === 'qr';
}

/**
 * The collapsible 'Learn More' marketing section (spec core §2 Home): open by default, forced open
 * for QR visitors, otherwise its state is remembered in the browser.
 */
export function LearnMore() {
  const [params] = useSearchParams();
  const forced = isQrVisit(params);
  const stored = marketingOpenStore.use();
  // A QR visit opens the section without changing what this browser remembers.
  const [forcedOpen, setForcedOpen] = useState(true);
  const open = forced ? forcedOpen : stored;
  const contentId = useId();

  const toggle = () => (forced ? setForcedOpen(!open) : marketingOpenStore.set(!open));

  return (
    <Card className="overflow-hidden" data-testid="learn-more">
      <button
        type="button"
        onClick={toggle}
        aria-expanded={open}
        aria-controls={contentId}
        className="flex w-full cursor-pointer items-center justify-between gap-3 px-5 py-3.5 text-left transition-colors hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
      >
        <span className="flex items-center gap-2 text-sm font-semibold">
          <span className="h-2 w-2 rounded-full bg-brand" aria-hidden />
          Learn More
          <span className="hidden font-normal text-zinc-500 sm:inline dark:text-zinc-400">
            · why build with the pack
          </span>
        </span>
        <ChevronDown className={cn('h-4 w-4 text-zinc-500 transition-transform', open && 'rotate-180')} aria-hidden />
      </button>
      {open ? (
        <div id={contentId} className="border-t border-zinc-200 px-5 pt-4 pb-5 dark:border-zinc-800">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5" data-testid="learn-more-claims">
            {claims.map(({ icon: Icon, value, label, detail }) => (
              <div
                key={label}
                className="flex items-start gap-3 rounded-lg bg-gradient-to-br from-brand/10 to-transparent p-3.5"
              >
                <span className="grid h-9 w-9 shrink-0 place-items-center rounded-lg bg-brand/15 text-brand-strong">
                  <Icon className="h-4.5 w-4.5" aria-hidden />
                </span>
                <div>
                  <p className="font-semibold">
                    {value} {label}
                  </p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">{detail}</p>
                </div>
              </div>
            ))}
          </div>
          <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400" data-testid="learn-more-claims-note">
            What the pack claims in general, not measurements of your runs: your own time and cost saved are on the{' '}
            <Link to="/usage-metrics" className="font-medium text-brand-strong hover:underline">
              Savings Dashboard
            </Link>
            .
          </p>
          <ol className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1.5 text-xs text-zinc-600 dark:text-zinc-400">
            {PIPELINE_STAGES.map((stage, index) => (
              <li key={stage} className="flex items-center gap-2">
                <span className="rounded-full border border-zinc-200 px-2 py-0.5 dark:border-zinc-700">
                  {index + 1}. {stage}
                </span>
                {index < PIPELINE_STAGES.length - 1 ? <span aria-hidden>→</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </Card>
  );
}
