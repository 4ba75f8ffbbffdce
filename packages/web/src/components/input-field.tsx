import { useId, type ComponentProps } from 'react';
import { cn } from '../lib/cn';

export interface InputFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  /** A validation message shown under the field; also marks the field invalid. */
  error?: string | undefined;
}

/** A labelled text input with its validation message, wired for screen readers. */
export function InputField({ label, error, className, ...props }: InputFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          'h-10 w-full rounded-lg border bg-white px-3 text-sm shadow-xs transition-colors outline-none placeholder:text-zinc-400 focus-visible:ring-2 focus-visible:ring-brand/40 disabled:cursor-not-allowed disabled:opacity-60 dark:bg-zinc-950',
          error
            ? 'border-red-500 focus-visible:border-red-500'
            : 'border-zinc-300 focus-visible:border-brand dark:border-zinc-700',
          className,
        )}
        {...props}
      />
      {error ? (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
