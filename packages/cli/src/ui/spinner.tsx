export interface SpinnerOptions {
  /** Show it at all: false outside a terminal, under CI and with `--json`. */
  enabled: boolean;
  color: boolean;
  /** Where to draw; stderr, so stdout stays the command's result. */
  stream: NodeJS.WritableStream;
}

/**
 * Runs `task` with a spinner and `label` beside it, then erases both, so the command's result
 * line is all that stays on screen. Without a terminal it just runs the task.
 */
export async function withSpinner<T>(label: string, task: () => Promise<T>, options: SpinnerOptions): Promise<T> {
  if (!options.enabled) return task();
  // Ink is loaded only to draw: it brings some 500 modules (es-toolkit's among them), which a
  // command in a script or CI, where no spinner shows, would otherwise load for nothing.
  const [{ render, Text }, { default: Spinner }] = await Promise.all([import('ink'), import('ink-spinner')]);
  const instance = render(
    <Text>
      <Text color={options.color ? 'cyan' : undefined}>
        <Spinner type="dots" />
      </Text>{' '}
      {label}
    </Text>,
    { stdout: options.stream, patchConsole: false, exitOnCtrlC: false },
  );
  try {
    return await task();
  } finally {
    instance.clear();
    instance.unmount();
    await instance.waitUntilExit();
  }
}
