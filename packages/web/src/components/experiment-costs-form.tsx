import type { Experiment } from '@wolfpack/core';
import { CircleCheck, Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { describeRequestFailure } from '../api/client';
import { useSubmitCosts } from '../api/experiments';
import { toast } from '../hooks/use-toast';
import { EMPTY_COSTS, parseCostsDraft, type CostsDraft, type CostsErrors } from '../lib/experiment-form';
import { Button } from './button';
import { InputField } from './input-field';

/**
 * Cost entry (companion §4, §5): numeric inputs in cents, the assembly time in ms optional. A
 * successful submit shows "Costs Submitted" and resets the form; its button then reads "Submitted"
 * and stays disabled until another cost is typed (the same costs are not sent twice).
 */
export function ExperimentCostsForm({ experiment }: { experiment: Experiment }) {
  const [draft, setDraft] = useState<CostsDraft>(EMPTY_COSTS);
  const [errors, setErrors] = useState<CostsErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const submitCosts = useSubmitCosts();
  const edit = (patch: Partial<CostsDraft>) => {
    setSubmitted(false);
    setDraft((old) => ({ ...old, ...patch }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseCostsDraft(draft);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    submitCosts.mutate(
      { id: experiment.id, input: parsed.value },
      {
        onSuccess: (saved) => {
          toast({
            title: 'Costs Submitted',
            description: saved.savingsPercent === null ? 'Savings appear once the Wolfpack cost is known and the Replit-only cost is above 0.' : 'The savings are computed below.',
          });
          setDraft(EMPTY_COSTS);
          setSubmitted(true);
        },
        onError: (error) =>
          toast({ title: 'Error', description: describeRequestFailure(error, { failed: 'The costs were not saved. Please try again.', exception: 'The costs were not saved. Please try again.' }), variant: 'destructive' }),
      },
    );
  }

  const numeric = { type: 'number', inputMode: 'numeric', min: 0, step: 1 } as const;
  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate data-testid="experiment-costs-form">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <InputField
          label="Replit assembly cost (cents)"
          {...numeric}
          value={draft.wolfpackReplitAssemblyCostCents}
          onChange={(event) => edit({ wolfpackReplitAssemblyCostCents: event.target.value })}
          error={errors.wolfpackReplitAssemblyCostCents}
          data-testid="cost-assembly"
        />
        <InputField
          label="Assembly time (ms, optional)"
          {...numeric}
          value={draft.wolfpackReplitAssemblyTimeMs}
          onChange={(event) => edit({ wolfpackReplitAssemblyTimeMs: event.target.value })}
          error={errors.wolfpackReplitAssemblyTimeMs}
          data-testid="cost-assembly-time"
        />
        <InputField
          label="Replit-only cost (cents)"
          {...numeric}
          value={draft.replitOnlyCostCents}
          onChange={(event) => edit({ replitOnlyCostCents: event.target.value })}
          error={errors.replitOnlyCostCents}
          data-testid="cost-replit-only"
        />
      </div>
      <div>
        <Button type="submit" disabled={submitCosts.isPending || submitted} data-testid="costs-submit">
          {submitted ? <CircleCheck className="h-4 w-4" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
          {submitCosts.isPending ? 'Submitting…' : submitted ? 'Submitted' : 'Submit Costs'}
        </Button>
      </div>
    </form>
  );
}
