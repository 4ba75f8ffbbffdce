import { formatCents, progressDisplay, runningElapsed, runningStepIds, stageStatusLabel } from '@wolfpack/core';
import { Box, render, Text } from 'ink';
import Spinner from 'ink-spinner';
import { isPartialRun, liveTimes, type RunView as RunState, type StageView } from '@wolfpack/core/client';
import { shownStages, type RunReporter } from '../run-report.js';
import { LEVEL_COLORS, useNow } from './live.js';

const BAR_WIDTH = 30;
/** How many activity lines the view keeps (the newest). */
export const LOG_LINES = 10;

export interface RunViewProps {
  state: RunState;
  color: boolean;
}

/**
 * The live view of a run: its stages (the five, or those a repair run does, named in the title;
 * pending, spinner while running, ✔ when complete, ✘ in red with its words when it failed, – in grey
 * when the run failed before it), a progress bar with percent and the stage under way counted,
 * elapsed time, time left ('—' when unknown) and what the run cost so far, and the newest lines of
 * the activity log coloured by level. Elapsed time keeps ticking between events while the run goes on,
 * and so does that of a step of Checking or Proven Code whose end line has not come ('Running the tests… 7 s').
 */
export function RunView({ state, color }: RunViewProps) {
  const going = state.phase !== 'complete' && state.phase !== 'failed' && state.phase !== 'interrupted';
  const now = useNow(going);

  const paint = (name: string | undefined) => (color ? name : undefined);
  const times = liveTimes(state, Math.max(now, state.progressAt ?? 0));
  const running = going && state.stages.some((stage) => stage.status === 'running');
  const shown = state.progress ? progressDisplay(state.progress, running) : undefined;
  const percent = shown?.percent ?? 0;
  const filled = Math.round((percent / 100) * BAR_WIDTH);
  const log = state.feed.slice(-LOG_LINES);
  const steps = going ? runningStepIds(log) : new Set<string>();
  const only = isPartialRun(state) ? (state.onlyStages ?? []) : [];

  return (
    <Box flexDirection="column">
      <Text bold={color}>
        Wolfpack {isPartialRun(state) ? 'repair run' : 'run'} {state.runId ?? '(starting)'}
        {only.length > 0 ? ` · ${only.join(', ')} only` : ''}
        {state.cycles > 1 ? ` · cycle ${state.cycle} of ${state.cycles}` : ''}
      </Text>
      {shownStages(state).map((stage) => (
        <StageRow key={stage.role} stage={stage} color={color} />
      ))}
      <Text>
        <Text color={paint('cyan')}>{'█'.repeat(filled)}</Text>
        <Text dimColor={color}>{'░'.repeat(BAR_WIDTH - filled)}</Text> {String(percent).padStart(3)}%
        {shown ? `  stage ${shown.stage} of ${shown.total}` : ''}
        {times ? `  elapsed ${formatDuration(times.elapsedSeconds)}  ETA ${times.remainingSeconds === null ? '—' : formatDuration(times.remainingSeconds)}` : ''}
        {state.spentCents !== null ? `  cost so far ${formatCents(state.spentCents)}` : ''}
      </Text>
      {state.notice !== null && <Text color={paint('yellow')}>{state.notice}</Text>}
      <Text> </Text>
      <Text bold={color}>Activity</Text>
      {log.map((line) => (
        <Text key={line.id} wrap="truncate-end" color={paint(LEVEL_COLORS[line.type as keyof typeof LEVEL_COLORS])}>
          <Text dimColor={color}>{clock(line.timestamp)}</Text> {!color && line.type !== 'info' && line.type !== 'success' ? `${line.type}: ` : ''}
          {line.message}
          {line.step && steps.has(line.step.id) ? <Text color={paint('cyan')}> {runningElapsed(line.step.startedAt, now)}</Text> : null}
        </Text>
      ))}
    </Box>
  );
}

function StageRow({ stage, color }: { stage: StageView; color: boolean }) {
  // Seconds once the stage finished; a running stage's count would stand still between events.
  const ended = stage.status === 'complete' || stage.status === 'failed';
  const detail = [stage.engine, ended ? `${stage.executionTime}s` : undefined].filter(Boolean).join('  ');
  // Words where the mark alone would be read as done or waiting: a failure and its reason, a stage never run.
  const words = stage.status === 'failed' || stage.status === 'not-run' ? stageStatusLabel(stage) : undefined;
  return (
    <Text>
      {' '}
      <StageIcon status={stage.status} color={color} /> {stage.role.padEnd(12)}
      {words !== undefined && <Text color={color && stage.status === 'failed' ? 'red' : undefined} dimColor={color && stage.status === 'not-run'}>{words}  </Text>}
      <Text dimColor={color}>{detail}</Text>
    </Text>
  );
}

function StageIcon({ status, color }: { status: StageView['status']; color: boolean }) {
  const paint = (name: string) => (color ? name : undefined);
  switch (status) {
    case 'running':
      return (
        <Text color={paint('cyan')}>
          <Spinner type="dots" />
        </Text>
      );
    case 'complete':
      return <Text color={paint('green')}>✔</Text>;
    case 'failed':
      return <Text color={paint('red')}>✘</Text>;
    case 'pending':
      return <Text dimColor={color}>○</Text>;
    case 'not-run':
    case 'skipped':
      return <Text color={paint('gray')}>–</Text>;
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/** 75 → "1:15", 3700 → "1:01:40". */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "2026-11-22T00:21:05.365Z" → "00:21:05" in local time; nothing for a time that does not parse. */
function clock(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '        ' : date.toTimeString().slice(0, 8);
}

/** Draws {@link RunView} on `stream` (stderr), redrawn in place for every update. */
export function liveReporter(stream: NodeJS.WritableStream, state: RunState, color: boolean): RunReporter {
  const instance = render(<RunView state={state} color={color} />, { stdout: stream, patchConsole: false, exitOnCtrlC: false });
  let updates = 0;
  return {
    update(_item, next) {
      updates += 1;
      instance.rerender(<RunView state={next} color={color} />);
    },
    async close() {
      // Refused before anything happened (unknown engine, logged out): the error line says it all.
      if (updates === 0) instance.clear();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
