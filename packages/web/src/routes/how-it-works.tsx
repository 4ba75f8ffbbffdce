import {
  COST_SAVED_DOLLARS_PER_SECOND,
  DEFAULT_PRICE_PER_1K_TOKENS_CENTS,
  ENHANCEMENT_ENGINES_PER_PASS,
  ENHANCEMENT_PASSES,
  formatCents,
  MONTHLY_GRANT_CENTS,
  PIPELINE_STAGES,
  TIME_SAVED_FACTOR,
  WELCOME_BONUS_CENTS,
  type PipelineRole,
} from '@wolfpack/core';
import { BadgeCheck, CircleHelp, Coins, Layers, PiggyBank, Wand2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePacks } from '../api/queries';
import { buttonClass } from '../components/button';
import { PageHeader, SectionCard } from '../components/section-card';
import { formatTokenPrice, packTitle, tokenPriceExample } from '../lib/pricing';

/** What each stage does, for someone who has never run the pack. */
const STAGE_TEXT: Record<PipelineRole, string> = {
  Planning: 'An engine reads your idea (and any files you attached) and writes a plan: the files the project needs and what each one does.',
  Building: 'Engines write every planned file, several at a time. A file that comes back cut short is sent back to be finished.',
  Checking: 'Every file is checked in memory: syntax, types, JSON, HTML, and imports that point at files that really exist. Problems go back to an engine to repair.',
  Polishing: 'An engine improves readability and small details. A polished file that breaks a check is thrown away, so polishing can only make things better.',
  'Proven Code': 'The final gate runs all the checks again, with repair rounds if needed. A project that passes is proven; one that does not says exactly what is still wrong.',
};

/**
 * Help (/how-it-works): how the staged engines, AI Enhance, Proven Code, credits and savings work,
 * written for a new user, with the spec's figures.
 */
export function HowItWorksPage() {
  const packs = usePacks();
  const price = packs.data?.pricePer1kTokensCents ?? DEFAULT_PRICE_PER_1K_TOKENS_CENTS;
  const steps = ENHANCEMENT_PASSES * ENHANCEMENT_ENGINES_PER_PASS;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeader
        icon={<CircleHelp className="h-7 w-7" aria-hidden />}
        title="How Wolfpack works"
        description="From an idea to a checked, multi-file project: what happens when you press Start, and what it costs."
      />

      <SectionCard icon={<Layers className="h-5 w-5" aria-hidden />} title="The staged engines" description="Five stages, one after another, each handing its work to the next." testId="help-stages">
        <ol className="flex flex-col gap-4">
          {PIPELINE_STAGES.map((stage, index) => (
            <li key={stage} className="flex gap-3">
              <span className="grid h-7 w-7 shrink-0 place-items-center rounded-full bg-brand text-sm font-semibold text-brand-foreground">{index + 1}</span>
              <div>
                <p className="font-medium">{stage}</p>
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{STAGE_TEXT[stage]}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          You follow it all live in the Pipeline Progress and the Activity Feed. If your connection drops, the run carries on
          on the server and the page picks it up again.
        </p>
      </SectionCard>

      <SectionCard icon={<Wand2 className="h-5 w-5" aria-hidden />} title="AI Enhance" testId="help-enhance">
        <Paragraphs>
          <p>
            Before you build, AI Enhance can turn a short idea into a detailed brief. It runs {ENHANCEMENT_PASSES} passes x{' '}
            {ENHANCEMENT_ENGINES_PER_PASS} engines = {steps} steps: in the first pass each engine improves your prompt on its own;
            in the second each one sees all the first-pass answers and refines them; the best parts are merged into one prompt.
          </p>
          <p>
            The progress shows the finished steps of {steps} and a time estimate. You can restore your original prompt at any time,
            and the project page keeps the whole Prompt Evolution.
          </p>
        </Paragraphs>
      </SectionCard>

      <SectionCard icon={<BadgeCheck className="h-5 w-5" aria-hidden />} title="Proven Code" testId="help-proven">
        <Paragraphs>
          <p>
            Generated code is only useful if it holds together. Proven Code is the last stage: every file is parsed and type-checked,
            every import must point at a file of the project, package.json must declare what the code uses, and HTML must be
            well-formed. Problems are sent back to an engine for repair rounds.
          </p>
          <p>A project that passes is marked proven. You pay for proof, not for failed fixes: if the gate still fails after its repair rounds, those rounds are refunded.</p>
        </Paragraphs>
      </SectionCard>

      <SectionCard icon={<Coins className="h-5 w-5" aria-hidden />} title="Credits" testId="help-credits">
        <ul className="flex list-disc flex-col gap-2 pl-5 text-sm text-zinc-700 marker:text-brand dark:text-zinc-300">
          <li>
            Every new account starts with a <strong>{formatCents(WELCOME_BONUS_CENTS)} welcome bonus</strong> and gets{' '}
            <strong>{formatCents(MONTHLY_GRANT_CENTS)} of free credits every month</strong>. The monthly grant resets on the 1st; what
            is left of it does not carry over.
          </li>
          <li>
            Engines are billed from the tokens they use: {formatTokenPrice(price)} ({tokenPriceExample(price)}), rounded up to the
            cent per call.
          </li>
          <li>
            Need more? Buy a pack in Settings:{' '}
            {(packs.data?.packs ?? []).length > 0 ? packs.data?.packs.map((p) => packTitle(p) + (p.popular ? ' (popular)' : '')).join('; ') : '$10; $25 +2%; $50 +4% (popular); $100 +4%'}.
            Bought credits never expire.
          </li>
          <li>
            <strong>Reservations keep costs in check.</strong> Before a stage calls an AI engine, the run reserves that stage&apos;s
            worst-case cost from your balance; when the stage ends, the reservation settles to what it really cost and the rest
            comes back. A stage that calls no engine reserves nothing and costs nothing.
          </li>
          <li>
            If your balance cannot cover a stage, the run stops it <em>before</em> any engine is called: the project keeps what
            earlier stages made, and you can resume the run after a top-up.
          </li>
          <li>Repair rounds that still leave Proven Code failing are refunded.</li>
        </ul>
        <div className="flex flex-wrap gap-2">
          <Link to="/settings#buy-credits" className={buttonClass('primary', 'sm')}>
            Add credits
          </Link>
          <Link to="/pricing" className={buttonClass('outline', 'sm')}>
            See pricing
          </Link>
        </div>
      </SectionCard>

      <SectionCard icon={<PiggyBank className="h-5 w-5" aria-hidden />} title="Savings" testId="help-savings">
        <Paragraphs>
          <p>Each finished run adds to your savings, estimated from the seconds the engines worked:</p>
          <ul className="flex list-disc flex-col gap-1 pl-5 marker:text-brand">
            <li>
              <strong>Time saved</strong> = seconds / 60 x {TIME_SAVED_FACTOR} hours (a 2-minute run saves about 5 hours).
            </li>
            <li>
              <strong>Cost saved</strong> = seconds x ${COST_SAVED_DOLLARS_PER_SECOND.toFixed(2)} (the same run saves $6.00).
            </li>
          </ul>
          <p>
            The{' '}
            <Link to="/usage-metrics" className="font-medium text-brand-strong hover:underline">
              Savings Dashboard
            </Link>{' '}
            adds them up per month and in total.
          </p>
        </Paragraphs>
      </SectionCard>

      <div className="flex justify-center">
        <Link to="/" className={buttonClass('primary', 'lg')}>
          Start building
        </Link>
      </div>
    </div>
  );
}

function Paragraphs({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-3 text-sm text-zinc-700 dark:text-zinc-300">{children}</div>;
}
