import { formatDollars, formatHours, runSavings } from '@wolfpack/core';
import { CircleCheck, Copy, FolderOpen, GitBranch, LoaderCircle, Repeat2, TriangleAlert } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { useCopyReplitCode } from '../hooks/use-copy-replit-code';
import { formatElapsed } from '../lib/format-time';
import type { RunResult } from '../lib/pipeline-state';
import { Button } from './button';

export interface SuccessBannerProps {
  result: RunResult;
  /** Stores the project as the continue-project id and hides the banner. */
  onContinue: () => void;
  onPublish: () => void;
}

/**
 * Shown after a run completes (spec core §2 Home): copy code for Replit, push to GitHub, View
 * Files, Continue Building. When the Proven Code gate found problems, it lists which file failed
 * which check.
 */
export function SuccessBanner({ result, onContinue, onPublish }: SuccessBannerProps) {
  const navigate = useNavigate();
  const { copy, copying } = useCopyReplitCode();
  const savings = runSavings(result.executionSeconds);
  const verification = result.verification;
  const failed = verification && !verification.passed;

  return (
    <section
      className="relative overflow-hidden rounded-xl border border-emerald-200 bg-gradient-to-br from-emerald-50 via-white to-brand/10 p-5 shadow-sm sm:p-6 dark:border-emerald-500/30 dark:from-emerald-500/10 dark:via-zinc-900 dark:to-brand/10"
      aria-labelledby="success-banner-title"
      data-testid="success-banner"
    >
      <div className="flex items-start gap-4">
        <span className="grid h-11 w-11 shrink-0 place-items-center rounded-full bg-emerald-600 text-white shadow-md shadow-emerald-600/30">
          <CircleCheck className="h-6 w-6" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="success-banner-title" className="text-lg font-semibold">
            Your project is ready
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="success-summary">
            {result.filesGenerated} {result.filesGenerated === 1 ? 'file' : 'files'} generated in{' '}
            {formatElapsed(result.executionSeconds)} · about {formatHours(savings.timeSavedHours)} and{' '}
            {formatDollars(savings.costSavedDollars)} saved
          </p>
          {verification?.passed ? (
            <p className="mt-1 text-sm text-emerald-700 dark:text-emerald-400" data-testid="verification-passed">
              Proven Code: all {verification.checkedFiles} checked files passed.
            </p>
          ) : null}
        </div>
      </div>

      {failed ? (
        <div
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-500/40 dark:bg-amber-500/10"
          data-testid="verification-problems"
        >
          <p className="flex items-center gap-2 font-medium text-amber-900 dark:text-amber-200">
            <TriangleAlert className="h-4 w-4" aria-hidden />
            Some files did not pass every check
          </p>
          <ul className="mt-2 flex max-h-48 flex-col gap-1 overflow-y-auto">
            {verification.problems.map((problem, index) => (
              <li key={`${problem.path}-${problem.check}-${index}`} className="text-amber-900 dark:text-amber-100">
                <code className="font-mono text-xs">{problem.path}</code>
                <span className="text-amber-700 dark:text-amber-300"> · {problem.check}: </span>
                {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="mt-5 grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        <Button onClick={() => void copy(result.projectId)} disabled={copying} data-testid="copy-replit">
          {copying ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
          Copy for Replit
        </Button>
        <Button variant="outline" onClick={onPublish}>
          <GitBranch className="h-4 w-4" aria-hidden />
          Push to GitHub
        </Button>
        <Button variant="outline" onClick={() => navigate(`/projects/${encodeURIComponent(result.projectId)}`)}>
          <FolderOpen className="h-4 w-4" aria-hidden />
          View Files
        </Button>
        <Button variant="outline" onClick={onContinue}>
          <Repeat2 className="h-4 w-4" aria-hidden />
          Continue Building
        </Button>
      </div>
    </section>
  );
}
