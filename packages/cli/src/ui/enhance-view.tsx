import { Box, render, Text } from 'ink';
import Spinner from 'ink-spinner';
import { EMPTY_RESULT_MESSAGE, formatEstimate, merging, remainingSeconds, type EnhanceView as EnhanceState, type EnhanceStepView } from '@wolfpack/core/client';
import type { EnhanceReporter } from '../enhance-report.js';
import { LEVEL_COLORS, useNow } from './live.js';

const BAR_WIDTH = 30;
const LABEL_WIDTH = 9;
const MIN_CELL_WIDTH = 14;
/** How many activity lines the view keeps (the newest). */
export const ENHANCE_LOG_LINES = 4;

export interface EnhanceViewProps {
  state: EnhanceState;
  color: boolean;
}

/**
 * The live view of a multi-pass enhancement: the steps as a grid of passes by engines (○ waiting,
 * spinner while the pass runs, ✔ with the engine's name when done), a progress bar with percent
 * and the time left as '~Ns' / '~Nm Ns', counting down between events, and the newest feed lines.
 */
export function EnhanceView({ state, color }: EnhanceViewProps) {
  const going = state.phase === 'enhancing';
  const now = useNow(going);

  const paint = (name: string | undefined) => (color ? name : undefined);
  const percent = state.percent;
  const filled = Math.round((percent / 100) * BAR_WIDTH);
  const left = remainingSeconds(state, Math.max(now, state.estimateAt ?? 0));
  const cellWidth = Math.max(MIN_CELL_WIDTH, ...state.steps.map((step) => (step.engine?.length ?? 0) + 4));
  const passes = Array.from({ length: state.passes }, (_, i) => i + 1);
  const engines = Array.from({ length: state.enginesPerPass }, (_, i) => i + 1);
  const title =
    state.outcome === null
      ? `Enhancing the prompt: ${state.passes} passes × ${state.enginesPerPass} engines`
      : state.outcome !== 'failed'
        ? 'Enhanced the prompt'
        : 'The enhancement failed';

  return (
    <Box flexDirection="column">
      <Text bold={color}>{title}</Text>
      <Box>
        <Box width={LABEL_WIDTH} />
        {engines.map((order) => (
          <Box key={order} width={cellWidth}>
            <Text dimColor={color}>Engine {order}</Text>
          </Box>
        ))}
      </Box>
      {passes.map((pass) => (
        <Box key={pass}>
          <Box width={LABEL_WIDTH}>
            <Text>Pass {pass}</Text>
          </Box>
          {engines.map((order) => {
            const step = state.steps.find((s) => s.passNumber === pass && s.engineOrder === order);
            return (
              <Box key={order} width={cellWidth}>
                <StepCell step={step} color={color} />
              </Box>
            );
          })}
        </Box>
      ))}
      <Text>
        <Text color={paint('cyan')}>{'█'.repeat(filled)}</Text>
        <Text dimColor={color}>{'░'.repeat(BAR_WIDTH - filled)}</Text> {String(percent).padStart(3)}%
        {going && left !== null && !merging(state) ? `  ${formatEstimate(left)} left` : ''}
      </Text>
      {merging(state) && (
        <Text>
          <Text color={paint('cyan')}>
            <Spinner type="dots" />
          </Text>{' '}
          Merging the proposals into one prompt…
        </Text>
      )}
      {/* The CLI says the empty result once, in its own warning. */}
      {state.log.filter((line) => line.message !== EMPTY_RESULT_MESSAGE).slice(-ENHANCE_LOG_LINES).map((line) => (
        <Text key={line.id} wrap="truncate-end" color={paint(LEVEL_COLORS[line.type as keyof typeof LEVEL_COLORS])}>
          {!color && line.type !== 'info' && line.type !== 'success' ? `${line.type}: ` : ''}
          {line.message}
        </Text>
      ))}
    </Box>
  );
}

function StepCell({ step, color }: { step: EnhanceStepView | undefined; color: boolean }) {
  const paint = (name: string) => (color ? name : undefined);
  if (step === undefined || step.status === 'pending') return <Text dimColor={color}>○</Text>;
  if (step.status === 'running') {
    return (
      <Text color={paint('cyan')}>
        <Spinner type="dots" />
      </Text>
    );
  }
  return (
    <Text>
      <Text color={paint('green')}>✔</Text> <Text dimColor={color}>{step.engine ?? ''}</Text>
    </Text>
  );
}

/** Draws {@link EnhanceView} on `stream` (stderr), redrawn in place for every event. */
export function liveEnhanceReporter(stream: NodeJS.WritableStream, state: EnhanceState, color: boolean): EnhanceReporter {
  const instance = render(<EnhanceView state={state} color={color} />, { stdout: stream, patchConsole: false, exitOnCtrlC: false });
  let updates = 0;
  return {
    update(_item, next) {
      updates += 1;
      instance.rerender(<EnhanceView state={next} color={color} />);
    },
    async close() {
      // Refused before anything happened (blank prompt, logged out): the error line says it all.
      if (updates === 0) instance.clear();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
