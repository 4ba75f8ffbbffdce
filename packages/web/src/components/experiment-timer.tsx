import type { Experiment } from '@wolfpack/core';
import { Play, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useReplitComplete, useReplitStart } from '../api/experiments';
import { describeRequestFailure } from '../api/client';
import { toast } from '../hooks/use-toast';
import { formatTimer, timerElapsedMs, timerState } from '../lib/experiment-form';
import { Button } from './button';

/** The timer ticks this often (companion §9). */
export const TIMER_TICK_MS = 100;

/**
 * The Replit-only timer (companion §2, §4): Start only before it started, Complete only while it
 * runs. The reading comes from the start time the server recorded, so a reloaded page resumes it.
 */
export function ExperimentTimer({ experiment }: { experiment: Experiment }) {
  const state = timerState(experiment);
  const [now, setNow] = useState(() => Date.now());
  const startTimer = useReplitStart();
  const completeTimer = useReplitComplete();

  useEffect(() => {
    if (state !== 'running') return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), TIMER_TICK_MS);
    return () => clearInterval(timer);
  }, [state]);

  const failed = (error: unknown) =>
    toast({ title: 'Error', description: describeRequestFailure(error, { failed: 'The timer did not change. Please try again.', exception: 'The timer did not change. Please try again.' }), variant: 'destructive' });

  return (
    <div className="flex flex-col gap-3" data-testid="replit-timer" data-state={state}>
      <p className="font-mono text-4xl font-semibold tabular-nums" data-testid="replit-timer-reading" aria-live="off">
        {formatTimer(timerElapsedMs(experiment, now))}
      </p>
      <div className="flex gap-2">
        {state === 'idle' ? (
          <Button
            disabled={startTimer.isPending}
            onClick={() =>
              startTimer.mutate(
                { id: experiment.id, input: undefined },
                { onSuccess: () => toast({ title: 'Replit Timer Started', description: 'Build the same prompt on Replit alone, then press Complete.' }), onError: failed },
              )
            }
            data-testid="replit-timer-start"
          >
            <Play className="h-4 w-4" aria-hidden />
            Start Replit Timer
          </Button>
        ) : null}
        {state === 'running' ? (
          <Button
            variant="secondary"
            disabled={completeTimer.isPending}
            onClick={() =>
              completeTimer.mutate(
                { id: experiment.id, input: undefined },
                {
                  onSuccess: (done) =>
                    toast({ title: 'Replit Timer Complete', description: `The Replit-only build took ${formatTimer(done.replitOnlyTotalTimeMs ?? 0)}.` }),
                  onError: failed,
                },
              )
            }
            data-testid="replit-timer-complete"
          >
            <Square className="h-4 w-4" aria-hidden />
            Complete
          </Button>
        ) : null}
        {state === 'completed' ? <p className="text-sm text-zinc-600 dark:text-zinc-400">The Replit-only build is timed.</p> : null}
      </div>
    </div>
  );
}
