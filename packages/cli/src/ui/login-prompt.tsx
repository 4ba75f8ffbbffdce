import { Box, render, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface Credentials {
  username: string;
  password: string;
}

export interface LoginPromptProps {
  server: string;
  /** From `--username`: only the password is asked. */
  username?: string | undefined;
  color: boolean;
}

type Step = 'username' | 'password' | 'done';

/**
 * Asks for a username and a password. The password is never drawn, not even as bullets, so its
 * length does not show either. Keys are handled one character at a time from refs rather than
 * state, because a fast typist or a paste delivers several keys before React renders again.
 */
export function LoginPrompt({ server, username: givenUsername, color }: LoginPromptProps) {
  const { exit } = useApp();
  const username = useRef(givenUsername ?? '');
  const password = useRef('');
  const step = useRef<Step>(givenUsername === undefined ? 'username' : 'password');
  const [, redraw] = useState(0);
  const [hint, setHint] = useState<string | undefined>(undefined);

  // Set once; the effect exits after React has drawn the final frame (no hint, no "typing is hidden").
  const [outcome, setOutcome] = useState<{ value: Credentials | null }>();
  useEffect(() => {
    if (outcome !== undefined) exit(outcome.value);
  }, [outcome, exit]);

  const finish = (value: Credentials | null) => {
    step.current = 'done';
    setHint(undefined);
    setOutcome({ value });
  };

  const submit = () => {
    if (step.current === 'username') {
      if (username.current.trim() === '') return setHint('Enter a username.');
      username.current = username.current.trim();
      step.current = 'password';
      setHint(undefined);
    } else if (step.current === 'password') {
      if (password.current === '') return setHint('Enter a password.');
      finish({ username: username.current, password: password.current });
    }
  };

  const field = () => (step.current === 'username' ? username : password);
  // A function, not an inline test: TypeScript would keep the narrowing across submit() calls.
  const isDone = () => step.current === 'done';

  useInput((input, key) => {
    if (isDone()) return;
    if ((key.ctrl && input === 'c') || key.escape) return finish(null);
    if (key.return) submit();
    else if (key.backspace || key.delete) field().current = field().current.slice(0, -1);
    else if (!key.ctrl && !key.meta) {
      // A pasted or fast-typed chunk can carry Enter in the middle ("alice\rs3cret\r").
      for (const char of input) {
        if (isDone()) break;
        if (char === '\r' || char === '\n') submit();
        else if (char >= ' ' && char !== '\u007f') field().current += char;
      }
    }
    redraw((n) => n + 1);
  });

  const label = (text: string) => (color ? <Text bold>{text}</Text> : <Text>{text}</Text>);
  return (
    <Box flexDirection="column">
      <Text>Log in to {server}</Text>
      <Text>
        {label('Username: ')}
        {username.current}
      </Text>
      {step.current !== 'username' && (
        <Text>
          {label('Password: ')}
          {step.current === 'password' && <Text dimColor={color}>(typing is hidden)</Text>}
        </Text>
      )}
      {hint !== undefined && <Text color={color ? 'yellow' : undefined}>{hint}</Text>}
    </Box>
  );
}

export interface PromptOptions extends LoginPromptProps {
  stdin: NodeJS.ReadableStream;
  /** A terminal stream to draw on. */
  stdout: NodeJS.WritableStream;
}

/** Shows {@link LoginPrompt}; resolves null when the person presses Ctrl+C or Escape. */
export async function promptForCredentials({ stdin, stdout, ...props }: PromptOptions): Promise<Credentials | null> {
  const instance = render(<LoginPrompt {...props} />, {
    stdin,
    stdout,
    exitOnCtrlC: false,
    patchConsole: false,
    // A person is typing at a terminal here even when CI is set, so the prompt must redraw live.
    interactive: true,
  });
  const result = (await instance.waitUntilExit()) as Credentials | null | undefined;
  return result ?? null;
}
