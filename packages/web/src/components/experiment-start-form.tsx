import { DEFAULT_PROMPT_TYPE, PROMPT_TYPES, type PromptType } from '@wolfpack/core';
import { FlaskConical } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useStartExperiment } from '../api/experiments';
import { toast } from '../hooks/use-toast';
import { canStartExperiment, START_VALIDATION } from '../lib/experiment-form';
import { Button } from './button';
import { InputField } from './input-field';

const fieldClass =
  'w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm font-normal shadow-xs outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950';

const COMPLEXITY_LABELS: Record<PromptType, string> = { simple: 'Simple', medium: 'Medium', complex: 'Complex' };

/**
 * Starts an experiment (companion §2, §5): project name, prompt and complexity (default medium).
 * Start stays disabled while either text is empty after trimming; a keyboard submit (Enter in the
 * name, Ctrl/Cmd+Enter in the prompt) with only spaces gets the spec's validation toast instead.
 */
export function ExperimentStartForm({ onStarted }: { onStarted: (id: string) => void }) {
  const [projectName, setProjectName] = useState('');
  const [testPrompt, setTestPrompt] = useState('');
  const [promptType, setPromptType] = useState<PromptType>(DEFAULT_PROMPT_TYPE);
  const start = useStartExperiment();
  const promptId = useId();
  const typeId = useId();
  const ready = canStartExperiment(projectName, testPrompt);

  function submit(event?: { preventDefault(): void }) {
    event?.preventDefault();
    if (start.isPending) return;
    if (!canStartExperiment(projectName, testPrompt)) {
      toast({ ...START_VALIDATION, variant: 'destructive' });
      return;
    }
    start.mutate(
      { projectName: projectName.trim(), testPrompt: testPrompt.trim(), promptType },
      {
        onSuccess: ({ id }) => {
          toast({ title: 'Experiment Started', description: `Wolfpack is building “${projectName.trim()}”. Start the Replit-only timer when you begin on Replit.` });
          setProjectName('');
          setTestPrompt('');
          setPromptType(DEFAULT_PROMPT_TYPE);
          onStarted(id);
        },
        onError: () => toast({ title: 'Failed to Start', description: 'Failed to start experiment', variant: 'destructive' }),
      },
    );
  }

  function onPromptKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate data-testid="experiment-start-form">
      <InputField
        label="Project name"
        value={projectName}
        onChange={(event) => setProjectName(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') submit(event);
        }}
        maxLength={200}
        placeholder="e.g. Recipe box"
        data-testid="experiment-project-name"
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={promptId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Prompt
        </label>
        <textarea
          id={promptId}
          value={testPrompt}
          onChange={(event) => setTestPrompt(event.target.value)}
          onKeyDown={onPromptKey}
          rows={4}
          maxLength={50_000}
          placeholder="What should be built? The same prompt goes to Wolfpack and to your Replit-only build."
          className={`${fieldClass} resize-y`}
          data-testid="experiment-prompt"
        />
      </div>
      <div className="flex flex-col gap-1.5 sm:max-w-xs">
        <label htmlFor={typeId} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Complexity
        </label>
        <select
          id={typeId}
          value={promptType}
          onChange={(event) => setPromptType(event.target.value as PromptType)}
          className={`${fieldClass} h-10`}
          data-testid="experiment-complexity"
        >
          {PROMPT_TYPES.map((type) => (
            <option key={type} value={type}>
              {COMPLEXITY_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <Button type="submit" disabled={!ready || start.isPending} data-testid="experiment-start">
          <FlaskConical className="h-4 w-4" aria-hidden />
          {start.isPending ? 'Starting…' : 'Start Experiment'}
        </Button>
      </div>
    </form>
  );
}
