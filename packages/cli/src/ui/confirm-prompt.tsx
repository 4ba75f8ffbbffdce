import { render, Text, useApp, useInput } from 'ink';
import { useEffect, useState } from 'react';

export interface ConfirmPromptProps {
  question: string;
  color: boolean;
}

/** "Delete …? [y/N]": y answers yes; n, Enter, Escape and Ctrl+C answer no. */
export function ConfirmPrompt({ question, color }: ConfirmPromptProps) {
  const { exit } = useApp();
  const [answer, setAnswer] = useState<boolean>();
  useEffect(() => {
    if (answer !== undefined) exit(answer);
  }, [answer, exit]);

  useInput((input, key) => {
    if (answer !== undefined) return;
    if (input.toLowerCase() === 'y') setAnswer(true);
    else if (input.toLowerCase() === 'n' || key.return || key.escape || (key.ctrl && input === 'c')) setAnswer(false);
  });

  return (
    <Text>
      <Text bold={color}>{question}</Text> {answer === undefined ? '[y/N] ' : answer ? 'yes' : 'no'}
    </Text>
  );
}

export interface ConfirmOptions extends ConfirmPromptProps {
  stdin: NodeJS.ReadableStream;
  /** A terminal stream to draw on. */
  stdout: NodeJS.WritableStream;
}

/** Asks {@link ConfirmPrompt} and resolves the answer; anything but y is no. */
export async function askToConfirm({ stdin, stdout, ...props }: ConfirmOptions): Promise<boolean> {
  const instance = render(<ConfirmPrompt {...props} />, {
    stdin,
    stdout,
    exitOnCtrlC: false,
    patchConsole: false,
    // Someone is at the keyboard, even under CI=true.
    interactive: true,
  });
  const result = (await instance.waitUntilExit()) as boolean | undefined;
  return result === true;
}
