import type { EnhancementStep } from '@wolfpack/core';
import { ArrowDown, ChevronRight, Clock, History, LoaderCircle, Sparkles, TriangleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { usePromptHistory } from '../api/queries';
import { describeRequestFailure } from '../api/client';
import { cn } from '../lib/cn';
import { formatStepDuration, groupPromptHistory, type EvolutionPass } from '../lib/prompt-evolution';
import { Button } from './button';
import { Card } from './card';
import { CopyButton } from './copy-button';

export interface PromptEvolutionPanelProps {
  projectId: string;
}

/**
 * The Prompt Evolution tab (spec core §2 Project detail): the original idea, each cycle (pass)
 * with its engines as expandable rows of input and output, and the final enhanced prompt. A
 * project without an enhancement history says AI Enhance was not used for it: that is what the
 * server knows (a project made a minute ago without it does not "predate" anything).
 */
export function PromptEvolutionPanel({ projectId }: PromptEvolutionPanelProps) {
  const history = usePromptHistory(projectId);

  if (history.isPending) {
    return (
      <Card className="grid min-h-48 place-items-center p-8" role="status" aria-label="Loading prompt history">
        <LoaderCircle className="h-5 w-5 animate-spin text-brand" aria-hidden />
      </Card>
    );
  }
  if (history.isError) {
    return (
      <Card className="flex flex-col items-start gap-3 p-6" role="alert" data-testid="evolution-error">
        <p className="flex items-center gap-2 font-medium">
          <TriangleAlert className="h-4 w-4 text-red-500" aria-hidden />
          The prompt history could not be loaded.
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {describeRequestFailure(history.error, { failed: 'The server could not read it.', exception: 'Check your connection.' })}
        </p>
        <Button size="sm" variant="outline" onClick={() => void history.refetch()}>
          Try again
        </Button>
      </Card>
    );
  }

  const evolution = groupPromptHistory(history.data);
  if (!evolution) {
    return (
      <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center" data-testid="evolution-none">
        <span className="grid h-12 w-12 place-items-center rounded-2xl bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400">
          <History className="h-6 w-6" aria-hidden />
        </span>
        <h2 className="text-lg font-semibold">No prompt evolution for this project</h2>
        <p className="max-w-md text-sm text-zinc-600 dark:text-zinc-400" data-testid="evolution-not-enhanced">
          AI Enhance was not used for this project.
        </p>
        <p className="max-w-md text-xs text-zinc-500 dark:text-zinc-500">
          Projects built from a prompt refined with AI Enhance show here how each engine changed the idea, pass by pass.
        </p>
      </Card>
    );
  }

  return (
    <ol className="flex flex-col" data-testid="prompt-evolution" aria-label="Prompt evolution">
      <Milestone icon={<span className="text-xs font-semibold">1</span>} title="Original idea" testId="evolution-original">
        <PromptBlock text={evolution.original} />
      </Milestone>
      {evolution.passes.map((pass, index) => (
        <Milestone
          key={pass.passNumber}
          icon={<span className="text-xs font-semibold">{index + 2}</span>}
          title={`Cycle ${pass.passNumber}`}
          subtitle={`Pass ${pass.passNumber} of ${evolution.passes.length} · ${pass.steps.length} ${pass.steps.length === 1 ? 'engine' : 'engines'} side by side · ${formatStepDuration(pass.wallMs)}`}
          testId="evolution-pass"
        >
          <PassSteps pass={pass} />
        </Milestone>
      ))}
      <Milestone
        icon={<Sparkles className="h-3.5 w-3.5" aria-hidden />}
        title="Final enhanced prompt"
        subtitle="What the pack built this project from"
        testId="evolution-final"
        last
        highlight
        action={<CopyButton text={() => evolution.final} what="the prompt" data-testid="copy-final-prompt" />}
      >
        <PromptBlock text={evolution.final} tall />
      </Milestone>
    </ol>
  );
}

interface MilestoneProps {
  icon: ReactNode;
  title: string;
  subtitle?: string;
  children: ReactNode;
  testId: string;
  last?: boolean;
  highlight?: boolean;
  action?: ReactNode;
}

/** One point of the timeline, joined to the next by a line. */
function Milestone({ icon, title, subtitle, children, testId, last, highlight, action }: MilestoneProps) {
  return (
    <li className="relative flex gap-4 pb-6 last:pb-0" data-testid={testId}>
      {!last ? <span className="absolute top-8 bottom-0 left-[15px] w-px bg-zinc-200 dark:bg-zinc-800" aria-hidden /> : null}
      <span
        className={cn(
          'relative z-10 grid h-8 w-8 shrink-0 place-items-center rounded-full ring-4 ring-zinc-50 dark:ring-zinc-950',
          highlight ? 'bg-brand text-brand-foreground' : 'bg-white text-zinc-600 shadow-sm ring-offset-0 dark:bg-zinc-800 dark:text-zinc-300',
          !highlight && 'border border-zinc-200 dark:border-zinc-700',
        )}
      >
        {icon}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
          <div className="flex flex-col">
            <h3 className="text-sm font-semibold">{title}</h3>
            {subtitle ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{subtitle}</p> : null}
          </div>
          {action}
        </div>
        {children}
      </div>
    </li>
  );
}

function PromptBlock({ text, tall }: { text: string; tall?: boolean }) {
  return (
    <Card className={cn('overflow-auto p-4', tall ? 'max-h-[32rem]' : 'max-h-64')}>
      <p className="text-sm leading-relaxed break-words whitespace-pre-wrap text-zinc-800 dark:text-zinc-200">{text}</p>
    </Card>
  );
}

function PassSteps({ pass }: { pass: EvolutionPass }) {
  return (
    <Card className="divide-y divide-zinc-200 overflow-hidden dark:divide-zinc-800">
      {pass.steps.map((step) => (
        <StepRow key={step.id} step={step} />
      ))}
    </Card>
  );
}

function StepRow({ step }: { step: EnhancementStep }) {
  const [open, setOpen] = useState(false);
  const panelId = `step-${step.id}`;
  const failed = step.outputPrompt.trim() === '';
  return (
    <div data-testid="evolution-step" data-pass={step.passNumber} data-engine-order={step.engineOrder}>
      <button
        type="button"
        onClick={() => setOpen((current) => !current)}
        aria-expanded={open}
        aria-controls={panelId}
        className="flex w-full cursor-pointer items-center gap-3 px-4 py-3 text-left text-sm transition-colors hover:bg-zinc-50 dark:hover:bg-zinc-800/50"
        data-testid="evolution-step-toggle"
      >
        <ChevronRight className={cn('h-4 w-4 shrink-0 text-zinc-400 transition-transform', open && 'rotate-90')} aria-hidden />
        <span className="font-medium">Engine {step.engineOrder}</span>
        <span className="truncate rounded-md bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          {step.engineKey}
        </span>
        {failed ? (
          <span className="rounded-md bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
            no output
          </span>
        ) : null}
        <span className="ml-auto inline-flex shrink-0 items-center gap-1 text-xs text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="evolution-step-duration">
          <Clock className="h-3.5 w-3.5" aria-hidden />
          {formatStepDuration(step.durationMs)}
        </span>
      </button>
      {open ? (
        <div id={panelId} className="grid grid-cols-1 gap-3 bg-zinc-50/70 px-4 pt-1 pb-4 lg:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] dark:bg-zinc-950/40" data-testid="evolution-step-detail">
          <StepText label="Input prompt" text={step.inputPrompt} testId="step-input" />
          <span className="hidden self-center text-zinc-300 lg:block dark:text-zinc-700" aria-hidden>
            <ArrowDown className="h-4 w-4 -rotate-90" />
          </span>
          <StepText label="Output prompt" text={step.outputPrompt || 'This engine returned nothing in this pass.'} testId="step-output" />
        </div>
      ) : null}
    </div>
  );
}

function StepText({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <span className="text-xs font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{label}</span>
      <pre
        className="max-h-72 overflow-auto rounded-lg border border-zinc-200 bg-white p-3 font-sans text-[13px] leading-relaxed break-words whitespace-pre-wrap text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
        data-testid={testId}
      >
        {text}
      </pre>
    </div>
  );
}
