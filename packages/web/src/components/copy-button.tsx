import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import { toast } from '../hooks/use-toast';
import { copyText } from '../lib/clipboard';
import { cn } from '../lib/cn';
import { Button } from './button';

/** How long the copied indicator shows (spec core §9). */
export const COPIED_INDICATOR_MS = 2000;

export interface CopyButtonProps extends Omit<ComponentProps<typeof Button>, 'onClick' | 'children'> {
  /** The text to copy, read when clicked. */
  text: () => string;
  /** @default 'Copy' */
  label?: string;
  /** What the failure toast says was not copied, e.g. 'the file'. */
  what?: string;
  /** @default 'Copied' */
  copiedLabel?: string;
}

/** Copies text; 'Copied' with a check mark shows for 2 s afterwards. */
export function CopyButton({ text, label = 'Copy', what = 'the text', copiedLabel = 'Copied', className, ...props }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    try {
      await copyText(text());
    } catch {
      toast({
        title: 'Copy Failed',
        description: `The browser did not allow copying ${what}. Select it and copy it by hand.`,
        variant: 'destructive',
      });
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }

  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void copy()}
      data-state={copied ? 'copied' : 'idle'}
      className={cn(copied && 'border-emerald-300 text-emerald-700 dark:border-emerald-500/40 dark:text-emerald-400', className)}
      {...props}
    >
      {copied ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </Button>
  );
}
