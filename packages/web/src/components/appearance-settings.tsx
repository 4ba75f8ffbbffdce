import { Moon, RotateCcw, Sun } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { committedBrandColor, isValidHexColor, normalizeBrandColor, useBrandColor } from '../hooks/use-brand-color';
import { useTheme, type Theme } from '../hooks/use-theme';
import { cn } from '../lib/cn';
import { Button } from './button';

/** Settings' Appearance: the theme and the brand colour (picker and hex text box). */
export function AppearanceSettings() {
  return (
    <>
      <ThemeChoice />
      <BrandColorChoice />
    </>
  );
}

const THEMES: Array<{ value: Theme; label: string; icon: ReactNode }> = [
  { value: 'light', label: 'Light', icon: <Sun className="h-4 w-4" aria-hidden /> },
  { value: 'dark', label: 'Dark', icon: <Moon className="h-4 w-4" aria-hidden /> },
];

function ThemeChoice() {
  const { theme, setTheme } = useTheme();
  const labelId = useId();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div>
        <p id={labelId} className="text-sm font-medium">
          Theme
        </p>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Light or dark interface.</p>
      </div>
      <div role="radiogroup" aria-labelledby={labelId} className="flex gap-1 rounded-xl border border-zinc-200 bg-zinc-100/80 p-1 dark:border-zinc-800 dark:bg-zinc-950">
        {THEMES.map((option) => {
          const checked = theme === option.value;
          return (
            <button
              key={option.value}
              type="button"
              role="radio"
              aria-checked={checked}
              onClick={() => setTheme(option.value)}
              data-testid={`theme-${option.value}`}
              className={cn(
                'inline-flex cursor-pointer items-center gap-2 rounded-lg px-3.5 py-1.5 text-sm font-medium transition-colors',
                checked ? 'bg-white text-zinc-900 shadow-sm dark:bg-zinc-800 dark:text-white' : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white',
              )}
            >
              {option.icon}
              {option.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}

function BrandColorChoice() {
  const { brandColor, setBrandColor, resetBrandColor, defaultBrandColor } = useBrandColor();
  const [text, setText] = useState(brandColor);
  const [error, setError] = useState<string | undefined>();
  const pickerId = useId();
  const textId = useId();
  const errorId = useId();
  // The picker, Reset or another tab can change the colour: the text box follows.
  useEffect(() => {
    setText((current) => (isValidHexColor(current) && normalizeBrandColor(current) === brandColor ? current : brandColor));
  }, [brandColor]);

  const typed = (value: string) => {
    setText(value);
    if (setBrandColor(value)) setError(undefined);
  };
  // A finished entry that is not a colour falls back to the default, and the box says so.
  const commit = () => {
    const { color, problem } = committedBrandColor(text);
    if (!problem) return setError(undefined);
    resetBrandColor();
    setText(color);
    setError(problem);
  };

  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div>
        <p className="text-sm font-medium">Brand colour</p>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Buttons, links and highlights use it.</p>
      </div>
      <div className="flex flex-col items-end gap-1.5">
        <div className="flex items-center gap-2">
          <label htmlFor={pickerId} className="sr-only">
            Brand colour picker
          </label>
          <input
            id={pickerId}
            type="color"
            value={brandColor}
            onChange={(event) => typed(event.target.value)}
            className="h-10 w-12 cursor-pointer rounded-lg border border-zinc-300 bg-white p-1 dark:border-zinc-700 dark:bg-zinc-950"
            data-testid="brand-color-picker"
          />
          <label htmlFor={textId} className="sr-only">
            Brand colour as a hex value
          </label>
          <input
            id={textId}
            value={text}
            onChange={(event) => typed(event.target.value)}
            onBlur={commit}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commit();
            }}
            spellCheck={false}
            maxLength={7}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className={cn(
              'h-10 w-28 rounded-lg border bg-white px-3 font-mono text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-brand/40 dark:bg-zinc-950',
              error ? 'border-red-500' : 'border-zinc-300 focus-visible:border-brand dark:border-zinc-700',
            )}
            data-testid="brand-color-text"
          />
          <Button
            variant="ghost"
            size="icon"
            aria-label="Reset to the default colour"
            title={`Reset to ${defaultBrandColor}`}
            disabled={brandColor === defaultBrandColor}
            onClick={() => {
              resetBrandColor();
              setError(undefined);
            }}
          >
            <RotateCcw className="h-4 w-4" aria-hidden />
          </Button>
        </div>
        {error ? (
          <p id={errorId} className="max-w-xs text-right text-sm text-red-600 dark:text-red-400" role="alert" data-testid="brand-color-error">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
