import type { VerificationCheck, VerificationProblem } from '@wolfpack/core';
import { ChevronRight, CircleCheck, CircleMinus, CircleX, Terminal } from 'lucide-react';
import { cn } from '../lib/cn';
import {
  CHECK_STATUS_LABEL,
  checkKindLabel,
  formatCheckDuration,
  problemLocation,
  testCounts,
} from '../lib/verification-view';
import { Card } from './card';

const STATUS_STYLE: Record<VerificationCheck['status'], { icon: typeof CircleCheck; className: string }> = {
  passed: { icon: CircleCheck, className: 'text-emerald-600 dark:text-emerald-400' },
  failed: { icon: CircleX, className: 'text-red-600 dark:text-red-400' },
  skipped: { icon: CircleMinus, className: 'text-zinc-500 dark:text-zinc-400' },
};

/**
 * Every check of a verification record, one card each: what it was, whether it read the files or
 * ran them, on which files, with which command, and what it found. Everything in here came from
 * generated code or its output, so it is rendered as text only (React escapes it; no HTML).
 */
export function VerificationCheckList({ checks }: { checks: readonly VerificationCheck[] }) {
  if (checks.length === 0) {
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="proven-no-checks">
        No check applied to these files.
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-3" aria-label="Checks">
      {checks.map((check, index) => (
        // The same check name can appear for two runtimes (tests for node and python).
        <CheckItem key={`${check.check}-${check.runtime ?? ''}-${index}`} check={check} />
      ))}
    </ul>
  );
}

function CheckItem({ check }: { check: VerificationCheck }) {
  const { icon: Icon, className } = STATUS_STYLE[check.status];
  return (
    <li>
      <Card className="flex flex-col gap-3 p-4" data-testid="proven-check" data-check={check.check} data-status={check.status}>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <Icon className={cn('h-5 w-5 shrink-0', className)} aria-hidden />
          <h3 className="font-mono text-sm font-semibold" data-testid="check-name">
            {check.check}
          </h3>
          <span className={cn('text-sm font-medium', className)} data-testid="check-status">
            {CHECK_STATUS_LABEL[check.status]}
          </span>
          <Badge testId="check-kind" title={check.kind === 'static' ? 'Read from the files' : 'Run in the sandbox'}>
            {checkKindLabel(check.kind)}
          </Badge>
          {check.runtime ? <Badge testId="check-runtime">{check.runtime}</Badge> : null}
          {check.durationMs !== undefined ? (
            <span className="ml-auto text-xs text-zinc-500 tabular-nums">{formatCheckDuration(check.durationMs)}</span>
          ) : null}
        </div>

        {check.summary ? <p className="text-sm text-zinc-700 dark:text-zinc-300">{check.summary}</p> : null}
        {check.status === 'skipped' ? (
          // A check that proves what the project is (its build, its start, its page) skipped leaves it unproven: said where it is.
          <p className={cn('text-sm', check.proves ? 'text-amber-800 dark:text-amber-300' : 'text-zinc-600 dark:text-zinc-400')} data-testid="check-reason">
            {check.proves ? 'Not run, so the project is not proven' : 'Skipped'}: {check.reason ?? 'no reason given'}
          </p>
        ) : null}
        {check.tests ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="check-tests">
            Tests: {testCounts(check.tests)}
          </p>
        ) : null}
        {check.command ? (
          <p className="flex min-w-0 items-center gap-2 text-sm">
            <Terminal className="h-4 w-4 shrink-0 text-zinc-500" aria-hidden />
            <code className="min-w-0 truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:bg-zinc-800" data-testid="check-command" title={check.command}>
              {check.command}
            </code>
          </p>
        ) : null}
        <FileList files={check.files} skipped={check.status === 'skipped'} />
        {check.problems.length > 0 ? (
          <ul className="flex flex-col gap-2" aria-label={`Problems found by ${check.check}`}>
            {check.problems.map((problem, index) => (
              <ProblemItem key={`${problem.path}-${problem.line ?? ''}-${index}`} problem={problem} />
            ))}
          </ul>
        ) : null}
      </Card>
    </li>
  );
}

/** The files a check covered, folded away: a big project lists dozens. */
function FileList({ files, skipped }: { files: readonly string[]; skipped: boolean }) {
  const label = `${files.length} ${files.length === 1 ? 'file' : 'files'}${skipped ? ' it would have covered' : ' covered'}`;
  if (files.length === 0) return <p className="text-xs text-zinc-500" data-testid="check-files">{label}</p>;
  return (
    <details className="group text-sm" data-testid="check-files">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 text-xs font-medium text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
        <ChevronRight className="h-3.5 w-3.5 transition-transform group-open:rotate-90" aria-hidden />
        <span data-testid="check-files-count">{label}</span>
      </summary>
      <ul className="mt-1.5 flex max-h-48 flex-col gap-0.5 overflow-y-auto pl-5">
        {files.map((file) => (
          <li key={file} className="font-mono text-xs break-all text-zinc-700 dark:text-zinc-300" data-testid="check-file">
            {file}
          </li>
        ))}
      </ul>
    </details>
  );
}

function ProblemItem({ problem }: { problem: VerificationProblem }) {
  return (
    <li className="rounded-lg border border-red-200 bg-red-50/60 p-3 text-sm dark:border-red-500/30 dark:bg-red-500/10" data-testid="check-problem">
      <p className="break-words">
        <code className="font-mono text-xs font-semibold" data-testid="problem-location">
          {problemLocation(problem)}
        </code>
        <span className="text-zinc-500">: </span>
        <span data-testid="problem-message">{problem.message}</span>
      </p>
      {problem.command ? (
        <p className="mt-1 font-mono text-xs text-zinc-600 dark:text-zinc-400" data-testid="problem-command">
          $ {problem.command}
        </p>
      ) : null}
      {problem.output ? (
        // Output of generated code: text in a <pre>, never parsed as markup.
        <pre
          className="mt-2 max-h-64 overflow-auto rounded-md bg-zinc-950 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-zinc-100"
          data-testid="problem-output"
        >
          {problem.output}
        </pre>
      ) : null}
    </li>
  );
}

function Badge({ children, testId, title }: { children: string; testId: string; title?: string }) {
  return (
    <span
      className="rounded-full border border-zinc-200 px-2 py-0.5 text-xs text-zinc-600 dark:border-zinc-700 dark:text-zinc-400"
      data-testid={testId}
      title={title}
    >
      {children}
    </span>
  );
}
