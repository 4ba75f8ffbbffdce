import type { Attachment } from '@wolfpack/core';
import { Eraser, FolderOpen, LoaderCircle, Mic, MicOff, Rocket, WandSparkles, X } from 'lucide-react';
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { AttachZone } from './attach-zone';
import { Button } from './button';
import { Card } from './card';

export interface PromptPanelProps {
  prompt: string;
  onPromptChange: (next: string) => void;
  attachments: readonly Attachment[];
  onAttachmentsChange: (update: (current: readonly Attachment[]) => readonly Attachment[]) => void;
  /** A run is under way: the start button reads 'Pack in action...'. */
  running: boolean;
  /** AI Enhance is under way: the prompt is read-only and the run buttons wait. */
  enhancing: boolean;
  /** Shown under the prompt: AI Enhance's progress or outcome. */
  enhanceStatus?: ReactNode;
  /** Shown under the start button: what the run would probably cost. */
  estimate?: ReactNode;
  recording: boolean;
  onToggleVoice: () => void;
  onStart: () => void;
  onClear: () => void;
  onLoadLatest: () => void;
  loadingLatest: boolean;
  onEnhance: () => void;
  /** After the one-time tip, the AI Enhance button glows. */
  enhanceGlow: boolean;
  /** The project the next run builds on, if any. */
  continueProjectId: string | null;
  onCancelContinue: () => void;
  onLog: (type: string, message: string) => void;
}

/** The prompt card: idea, voice, attachments and the run buttons (spec core §2 Home, §5). */
export function PromptPanel(props: PromptPanelProps) {
  const { prompt, running, enhancing, recording } = props;
  const textareaId = useId();
  const hintId = useId();
  // Spec core §5: AI Enhance is disabled for a blank prompt, during a run or while enhancing.
  const enhanceDisabled = !prompt.trim() || running || enhancing;

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      if (!running && !enhancing) props.onStart();
    }
  }

  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" data-testid="prompt-panel">
      <div className="flex items-end justify-between gap-3">
        <label htmlFor={textareaId} className="flex flex-col gap-0.5">
          <span className="text-base font-semibold">What should the pack build?</span>
          <span id={hintId} className="text-sm font-normal text-zinc-500 dark:text-zinc-400">
            Describe your project idea, dictate it, or attach files for context.
          </span>
        </label>
        <span className="shrink-0 text-xs text-zinc-400 tabular-nums" aria-hidden>
          {prompt.length.toLocaleString()} chars
        </span>
      </div>

      {props.continueProjectId ? (
        <div
          className="flex items-center justify-between gap-3 rounded-lg border border-brand/30 bg-brand/5 px-3 py-2 text-sm"
          data-testid="continue-mode"
        >
          <span className="min-w-0">
            <span className="font-medium text-brand-strong">Continue mode</span>
            <span className="text-zinc-600 dark:text-zinc-400">
              {' '}
              · the next run builds on project{' '}
              <code className="font-mono text-xs">{props.continueProjectId.slice(0, 8)}</code>
            </span>
          </span>
          <button
            type="button"
            onClick={props.onCancelContinue}
            aria-label="Leave continue mode"
            className="cursor-pointer rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
          >
            <X className="h-4 w-4" aria-hidden />
          </button>
        </div>
      ) : null}

      <div className="relative">
        <textarea
          id={textareaId}
          rows={10}
          value={prompt}
          onChange={(event) => props.onPromptChange(event.target.value)}
          onKeyDown={onKeyDown}
          readOnly={enhancing}
          aria-busy={enhancing || undefined}
          aria-describedby={hintId}
          placeholder="e.g. A habit tracker with daily streaks, reminders and a weekly progress chart, built with React and a small Express API."
          data-testid="prompt-input"
          className={cn(
            'block w-full resize-y rounded-xl border border-zinc-300 bg-white px-4 py-3 pr-14 text-sm leading-relaxed shadow-xs transition-colors outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/30 dark:border-zinc-700 dark:bg-zinc-950',
            enhancing && 'cursor-progress bg-zinc-50 text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400',
          )}
        />
        <button
          type="button"
          onClick={props.onToggleVoice}
          disabled={enhancing}
          aria-pressed={recording}
          aria-label={recording ? 'Stop voice input' : 'Start voice input'}
          title={recording ? 'Stop voice input' : 'Dictate your idea'}
          data-testid="voice-button"
          data-state={recording ? 'recording' : 'off'}
          className={cn(
            'absolute top-3 right-3 grid h-9 w-9 cursor-pointer place-items-center rounded-full transition-colors disabled:pointer-events-none disabled:opacity-50',
            recording
              ? 'bg-red-600 text-white shadow-md ring-4 ring-red-500/25 motion-safe:animate-pulse'
              : 'bg-zinc-100 text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-700',
          )}
        >
          {recording ? <MicOff className="h-4 w-4" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />}
        </button>
      </div>

      <AttachZone
        attachments={props.attachments}
        onChange={props.onAttachmentsChange}
        onLog={props.onLog}
        disabled={running || enhancing}
      />

      {props.enhanceStatus}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={props.onClear} disabled={running || enhancing}>
            <Eraser className="h-4 w-4" aria-hidden />
            Clear
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={props.onLoadLatest}
            disabled={running || enhancing || props.loadingLatest}
            aria-busy={props.loadingLatest || undefined}
          >
            {props.loadingLatest ? (
              <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <FolderOpen className="h-4 w-4" aria-hidden />
            )}
            Load Latest Project
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={props.onEnhance}
            disabled={enhanceDisabled}
            data-testid="enhance-button"
            aria-busy={enhancing || undefined}
            data-glow={props.enhanceGlow && !enhanceDisabled ? 'true' : undefined}
            className={cn(
              props.enhanceGlow &&
                !enhanceDisabled &&
                'enhance-glow border-brand/60 text-brand-strong dark:border-brand/60 dark:text-brand-strong',
            )}
          >
            {enhancing ? (
              <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <WandSparkles className="h-4 w-4" aria-hidden />
            )}
            {enhancing ? 'Enhancing…' : 'AI Enhance'}
          </Button>
        </div>
        <div className="flex flex-col gap-1.5">
          <Button
            size="lg"
            onClick={props.onStart}
            disabled={running || enhancing}
            data-testid="start-button"
            className="min-w-48 shadow-md shadow-brand/25"
          >
            {running ? (
              <LoaderCircle className="h-4.5 w-4.5 animate-spin" aria-hidden />
            ) : (
              <Rocket className="h-4.5 w-4.5" aria-hidden />
            )}
            {running ? 'Pack in action...' : 'Start Wolfpack'}
          </Button>
          {props.estimate}
        </div>
      </div>
    </Card>
  );
}
