import { render, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface ConfirmPromptProps {
  question: string;
  color: boolean;
}

/**
 * "Delete …? [y/N]": y (or yes) answers yes; n, anything else followed by Enter, Escape and Ctrl+C
 * answer no. A pasted answer, an expect script or quick typing sends the answer and its Enter in
 * one chunk ("yes\r"), which Ink hands over as one input: it is read as typed text up to the Enter.
 */
export function ConfirmPrompt({ question, color }: ConfirmPromptProps) {
  const { exit } = useApp();
  const [answer, setAnswer] = useState<boolean>();
  const typed = useRef('');
  useEffect(() => {
    if (answer !== undefined) exit(answer);
  }, [answer, exit]);

  useInput((input, key) => {
    if (answer !== undefined) return;
    if (key.escape || (key.ctrl && input === 'c')) return setAnswer(false);
    typed.current += input.replace(/[\r\n]/g, '');
    const word = typed.current.trim().toLowerCase();
    if (word === 'y' || word === 'yes') setAnswer(true);
    else if (word === 'n' || word === 'no' || key.return || /[\r\n]/.test(input)) setAnswer(false);
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
