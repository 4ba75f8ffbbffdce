import { FlaskConical, History, Microscope } from 'lucide-react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { isNotFound } from '../api/capsules';
import { useExperiment, useExperiments } from '../api/experiments';
import { useMe } from '../api/queries';
import { ExperimentCurrent } from '../components/experiment-current';
import { ExperimentHistory } from '../components/experiment-history';
import { ExperimentStartForm } from '../components/experiment-start-form';
import { PageHeader, SectionCard } from '../components/section-card';
import { LoadingBlock, SignInPrompt } from '../components/sign-in-prompt';
import { experimentInProgress } from '../lib/experiment-form';

/**
 * The cost-comparison lab (/lab, companion §2): start an experiment (a real Wolfpack run of the
 * prompt), time the Replit-only build, enter the costs, see the savings and the history. The open
 * experiment's id lives in the URL (?id=), so a reload comes back to it and its running timer;
 * plain /lab (the menu's link) goes on with the newest experiment still under way.
 */
export function LabPage() {
  const { user, isPending: mePending } = useMe();
  const signedIn = user !== null;
  const [params, setParams] = useSearchParams();
  const currentId = params.get('id');
  const experiments = useExperiments(signedIn);
  const current = useExperiment(currentId, signedIn);
  const open = (id: string) => setParams({ id });
  // The list is newest first. Replace, so Back does not land on plain /lab and come straight back.
  const resume = currentId === null ? experiments.data?.find(experimentInProgress) : undefined;

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      {/* Beside the page, not instead of it: what is typed in the start form meanwhile stays. */}
      {resume ? <Navigate replace to={{ search: `?id=${encodeURIComponent(resume.id)}` }} /> : null}
      <PageHeader
        icon={<FlaskConical className="h-7 w-7" aria-hidden />}
        title="Cost Comparison Lab"
        description="Build the same prompt with Wolfpack and on Replit alone, time both, enter what each cost, and see what you saved."
      />
      {!mePending && !signedIn ? (
        <SignInPrompt what="your experiments" />
      ) : (
        <>
          <SectionCard icon={<FlaskConical className="h-5 w-5" aria-hidden />} title="Start an Experiment" description="The prompt runs through the real Wolfpack pipeline, billed like any run." testId="lab-start">
            <ExperimentStartForm onStarted={open} />
          </SectionCard>

          {currentId ? (
            <SectionCard icon={<Microscope className="h-5 w-5" aria-hidden />} title="Current Experiment" testId="lab-current">
              {current.data ? (
                <ExperimentCurrent experiment={current.data} />
              ) : current.isError ? (
                <p className="text-sm text-red-600 dark:text-red-400" data-testid="experiment-load-error">
                  {isNotFound(current.error) ? 'This experiment was not found. Choose one from your history.' : 'The experiment could not be loaded. Reload the page to try again.'}
                </p>
              ) : (
                <LoadingBlock rows={2} label="Loading the experiment" />
              )}
            </SectionCard>
          ) : null}

          <SectionCard icon={<History className="h-5 w-5" aria-hidden />} title="History" description="Your experiments, newest first." testId="lab-history">
            {experiments.data ? (
              <ExperimentHistory experiments={experiments.data} currentId={currentId} onOpen={open} />
            ) : experiments.isError ? (
              <p className="text-sm text-red-600 dark:text-red-400">Your experiments could not be loaded. Reload the page to try again.</p>
            ) : (
              <LoadingBlock rows={2} label="Loading your experiments" />
            )}
          </SectionCard>
        </>
      )}
    </div>
  );
}
