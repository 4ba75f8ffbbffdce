import type { Attachment } from '@wolfpack/core';
import { LogIn, Sparkles } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useEngines, useMe } from '../api/queries';
import { useRunEstimate } from '../api/run-estimate';
import { ActivityFeed } from '../components/activity-feed';
import { DemoNotice } from '../components/demo-notice';
import { EnhanceStatus } from '../components/enhance-status';
import { EnhanceTipDialog } from '../components/enhance-tip-dialog';
import { HistoryPanel } from '../components/history-panel';
import { LearnMore } from '../components/learn-more';
import { PipelineProgress } from '../components/pipeline-progress';
import { ProofNotice } from '../components/proof-notice';
import { PromptPanel } from '../components/prompt-panel';
import { RunEstimate } from '../components/run-estimate';
import { usePublishDialog } from '../components/publish-dialog';
import { RunStatusCallout } from '../components/run-status-callout';
import { SavingsPopup } from '../components/savings-popup';
import { SavingsSummary } from '../components/savings-summary';
import { StatisticsPanel } from '../components/statistics-panel';
import { SuccessBanner } from '../components/success-banner';
import { useEnhance } from '../hooks/use-enhance';
import { useEnhanceTip } from '../hooks/use-enhance-tip';
import { useLoadLatestProject } from '../hooks/use-load-latest-project';
import { usePipelineRun } from '../hooks/use-pipeline-run';
import { toast } from '../hooks/use-toast';
import { appendTranscript, useVoiceInput } from '../hooks/use-voice-input';
import { completedProjectIdStore, continueProjectIdStore, peekTweakRequest, takeTweakRequest } from '../lib/build-stores';
import { isRunActive } from '../lib/pipeline-state';

/** Spec core §9: a stored tweak request starts this long after the page opens with autostart=true. */
export const AUTOSTART_DELAY_MS = 500;

/**
 * Router state another screen passes when it sends the user here: the idea to put in the prompt
 * (Continue on a project; the continue-project id itself travels in browser storage), or the
 * project to repair again (the Proven Code tab's "Repair again"). Router state, not a query
 * parameter: a link someone sends cannot start a charged run.
 */
export interface HomeLocationState {
  idea?: string;
  repairProjectId?: string;
}

function ideaFromLocation(state: unknown): string | undefined {
  if (!state || typeof state !== 'object' || !('idea' in state)) return undefined;
  const idea = (state as HomeLocationState).idea;
  return typeof idea === 'string' && idea.trim() ? idea : undefined;
}

function repairFromLocation(state: unknown): string | undefined {
  if (!state || typeof state !== 'object' || !('repairProjectId' in state)) return undefined;
  const id = (state as HomeLocationState).repairProjectId;
  return typeof id === 'string' && id.trim() ? id : undefined;
}

/** Home (/): the build screen (spec core §2 Home). */
export function HomePage() {
  const { state, start, repair, resume, reconnect, log, clearFeed, dismissResult } = usePipelineRun();
  const location = useLocation();
  const navigate = useNavigate();
  // Continue from a project page arrives with the project's idea.
  const [prompt, setPrompt] = useState(() => ideaFromLocation(location.state) ?? '');
  useEffect(() => {
    // The idea is used once: a reload or Back must not bring it back over newer edits.
    if (ideaFromLocation(location.state) !== undefined || repairFromLocation(location.state) !== undefined) {
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
    }
  }, [location.state, location.pathname, location.search, navigate]);
  const [attachments, setAttachments] = useState<readonly Attachment[]>([]);
  const { user, isPending: mePending } = useMe();
  const engines = useEngines(user !== null);
  const completedProjectId = completedProjectIdStore.use();
  const continueProjectId = continueProjectIdStore.use();
  const running = isRunActive(state.phase);
  const tip = useEnhanceTip();
  const editPrompt = (next: string) => {
    setPrompt(next);
    tip.onUserInput(next);
  };
  const promptRef = useRef(prompt);
  promptRef.current = prompt;
  const voice = useVoiceInput({
    onTranscript: (text) => editPrompt(appendTranscript(promptRef.current, text)),
    onLog: log,
  });
  const latest = useLoadLatestProject(setPrompt);
  const enhancer = useEnhance({ onPrompt: setPrompt });
  const enhancing = enhancer.enhancing;
  const publish = usePublishDialog();

  const modelOrder = useRef<string[]>([]);
  modelOrder.current = engines.data?.engines.map((engine) => engine.key) ?? [];
  // What the run the prompt describes would cost, for a signed-in user before it starts.
  const estimate = useRunEstimate(user && !running ? { idea: prompt, attachments, modelOrder: modelOrder.current, projectId: continueProjectId } : null);

  const runIdea = useCallback(
    (idea: string, projectId?: string) =>
      void start(idea.trim(), { attachments, modelOrder: modelOrder.current, projectId }),
    [attachments, start],
  );

  function handleStart() {
    if (enhancing) return;
    if (!prompt.trim()) {
      log('warning', 'Please enter an idea or speak.');
      toast({ title: 'Input Required', description: 'Please enter an idea or use voice input', variant: 'destructive' });
      return;
    }
    voice.stop();
    enhancer.dismiss();
    runIdea(prompt);
  }

  // /?autostart=true runs the stored tweak request after 500 ms, then removes it. It is taken only
  // when the timer fires, so React's development double effects cannot lose or repeat it.
  const [params, setParams] = useSearchParams();
  const autostart = params.get('autostart') === 'true';
  const startRef = useRef(start);
  startRef.current = start;
  useEffect(() => {
    if (!autostart) return;
    const pending = peekTweakRequest();
    if (!pending) return;
    setPrompt(pending.idea);
    const timer = setTimeout(() => {
      const request = takeTweakRequest();
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('autostart');
          return next;
        },
        { replace: true },
      );
      if (request) void startRef.current(request.idea, { modelOrder: modelOrder.current, projectId: request.projectId });
    }, AUTOSTART_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autostart, setParams]);

  // "Repair again" from a project page starts once per navigation: the ref outlives React's
  // development double effects, and the state is cleared above so a reload or Back cannot repeat
  // a charged run.
  const repairHandled = useRef<string | null>(null);
  useEffect(() => {
    const projectId = repairFromLocation(location.state);
    if (projectId === undefined || repairHandled.current === location.key) return;
    repairHandled.current = location.key;
    void repair(projectId, { modelOrder: modelOrder.current });
  }, [location.state, location.key, repair]);

  // Bring the run into view when it starts, and the result when it completes.
  const runArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.phase === 'starting' || state.phase === 'complete') {
      runArea.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
    }
  }, [state.phase]);

  function continueBuilding(projectId: string) {
    continueProjectIdStore.set(projectId);
    dismissResult();
    toast({ title: 'Continue Mode Enabled', description: 'Describe what to add or change; the next run builds on this project.' });
  }

  const showRun = state.runId !== null || running;
  const result = state.phase === 'complete' && !state.resultDismissed ? state.result : null;
  const notice = engines.data?.demo ? engines.data.notice : null;
  const visitor = !mePending && !user && state.phase !== 'unauthorized';

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-2">
          <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-brand/10 px-2.5 py-1 text-xs font-medium text-brand-strong">
            <Sparkles className="h-3.5 w-3.5" aria-hidden />
            Staged AI engines
          </span>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Build with the pack</h1>
          <p className="max-w-2xl text-zinc-600 dark:text-zinc-400">
            Describe a project idea and Wolfpack&apos;s engines plan, build, check and polish it into a multi-file
            project you can download, copy to Replit or push to GitHub.{' '}
            <Link to="/how-it-works" className="font-medium text-brand-strong hover:underline" data-testid="link-how-it-works">
              How it works
            </Link>
          </p>
        </div>
        <HistoryPanel />
      </header>

      <LearnMore />

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-6">
          {notice ? <DemoNotice notice={notice} /> : null}
          <ProofNotice proof={engines.data?.proof} />
          {visitor ? (
            <div
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
              data-testid="visitor-notice"
            >
              <p className="text-zinc-600 dark:text-zinc-400">
                You are not signed in. Sign in to run the pack and keep your projects.
              </p>
              <Link
                to="/login"
                className="inline-flex items-center gap-1.5 font-medium text-brand-strong hover:underline"
              >
                <LogIn className="h-4 w-4" aria-hidden />
                Sign in
              </Link>
            </div>
          ) : null}

          <PromptPanel
            prompt={prompt}
            onPromptChange={editPrompt}
            attachments={attachments}
            onAttachmentsChange={(update) => setAttachments(update)}
            running={running}
            enhancing={enhancing}
            enhanceStatus={
              <EnhanceStatus state={enhancer.state} onDismiss={enhancer.dismiss} onRestore={enhancer.restoreOriginal} />
            }
            estimate={<RunEstimate estimate={estimate} />}
            recording={voice.recording}
            onToggleVoice={voice.toggle}
            onStart={handleStart}
            onClear={() => {
              voice.stop();
              enhancer.dismiss();
              setPrompt('');
              setAttachments([]);
            }}
            onLoadLatest={() => void latest.loadLatest()}
            loadingLatest={latest.loading}
            onEnhance={() => {
              tip.stopGlow();
              if (!prompt.trim() || running || enhancing) return;
              voice.stop();
              enhancer.enhance(prompt, attachments);
            }}
            enhanceGlow={tip.glow}
            continueProjectId={continueProjectId}
            onCancelContinue={() => continueProjectIdStore.remove()}
            onLog={log}
          />

          <div ref={runArea} className="flex scroll-mt-24 flex-col gap-6">
            <RunStatusCallout state={state} onResume={() => void resume()} onReconnect={() => void reconnect()} />
            {result ? (
              <SuccessBanner
                result={result}
                spentCents={state.spentCents}
                onContinue={() => continueBuilding(result.projectId)}
                onPublish={() => publish.open(result.projectId)}
                onRepair={() => void repair(result.projectId, { modelOrder: modelOrder.current })}
              />
            ) : null}
            {showRun || completedProjectId ? (
              <PipelineProgress
                phase={state.phase}
                stages={state.stages}
                progress={state.progress}
                spentCents={state.spentCents}
                completedProjectId={completedProjectId}
                onPublish={() => publish.open(completedProjectId)}
              />
            ) : null}
          </div>
        </div>

        <aside className="flex min-w-0 flex-col gap-6" aria-label="Activity and statistics">
          <ActivityFeed items={state.feed} processing={running || enhancing} onClear={clearFeed} />
          <StatisticsPanel />
          <SavingsSummary />
        </aside>
      </div>

      <EnhanceTipDialog open={tip.open} onOpenChange={tip.setOpen} />
      <SavingsPopup />
      {publish.dialog}
    </div>
  );
}
