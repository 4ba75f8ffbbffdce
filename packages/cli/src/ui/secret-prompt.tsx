import { Box, render, Text, useApp, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';

export interface SecretPromptProps {
  /** What is asked for, e.g. "Admin secret for http://127.0.0.1:3000". */
  title: string;
  label: string;
  color: boolean;
}

/**
 * Asks for one secret. Like the login prompt's password, it is never drawn, not even as bullets,
 * and keys are read one at a time from a ref (a paste arrives as several keys at once).
 */
export function SecretPrompt({ title, label, color }: SecretPromptProps) {
  const { exit } = useApp();
  const secret = useRef('');
  const done = useRef(false);
  const [hint, setHint] = useState<string | undefined>(undefined);
  const [outcome, setOutcome] = useState<{ value: string | null }>();
  useEffect(() => {
    if (outcome !== undefined) exit(outcome.value);
  }, [outcome, exit]);

  const finish = (value: string | null) => {
    done.current = true;
    setHint(undefined);
    setOutcome({ value });
  };
  const submit = () => (secret.current === '' ? setHint(`Enter the ${label.toLowerCase()}.`) : finish(secret.current));

  useInput((input, key) => {
    if (done.current) return;
    if ((key.ctrl && input === 'c') || key.escape) return finish(null);
    if (key.return) return submit();
    if (key.backspace || key.delete) secret.current = secret.current.slice(0, -1);
    else if (!key.ctrl && !key.meta) {
      for (const char of input) {
        if (done.current) break;
        if (char === '\r' || char === '\n') submit();
        else if (char >= ' ' && char !== '\u007f') secret.current += char;
      }
    }
  });

  return (
    <Box flexDirection="column">
      <Text>{title}</Text>
      <Text>
        {color ? <Text bold>{label}: </Text> : <Text>{label}: </Text>}
        {!done.current && <Text dimColor={color}>(typing is hidden)</Text>}
      </Text>
      {hint !== undefined && <Text color={color ? 'yellow' : undefined}>{hint}</Text>}
    </Box>
  );
}

/** Shows {@link SecretPrompt} on a terminal; resolves null when the person presses Ctrl+C or Escape. */
export async function promptForSecret({ stdin, stdout, ...props }: SecretPromptProps & { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<string | null> {
  const instance = render(<SecretPrompt {...props} />, { stdin, stdout, exitOnCtrlC: false, patchConsole: false, interactive: true });
  const result = (await instance.waitUntilExit()) as string | null | undefined;
  return result ?? null;
}
