import type { CapsuleEvent } from '@wolfpack/core';
import { CheckCircle2, Cpu, MessageSquareText, Sparkles, Wand2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { capsuleEventLabel, isEnhancedStep } from '../lib/capsule-format';
import { formatClock } from '../lib/format-time';

/** The timeline's fixed height (companion §9: 400 px); longer sessions scroll inside it. */
export const TIMELINE_HEIGHT_PX = 400;

const ICONS: Record<CapsuleEvent['eventType'], ReactNode> = {
  prompt_received: <MessageSquareText className="h-4 w-4" aria-hidden />,
  model_enhanced: <Wand2 className="h-4 w-4" aria-hidden />,
  enhancement_selected: <Sparkles className="h-4 w-4" aria-hidden />,
  code_refined: <Cpu className="h-4 w-4" aria-hidden />,
  session_complete: <CheckCircle2 className="h-4 w-4" aria-hidden />,
};

/**
 * The recorded session, event by event: type, time, model, reason and iteration. Everything is
 * rendered as text; the data comes from the run and is never parsed as markup.
 */
export function CapsuleTimeline({ events }: { events: readonly CapsuleEvent[] }) {
  return (
    <div
      className="overflow-y-auto overscroll-contain rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      style={{ height: TIMELINE_HEIGHT_PX }}
      tabIndex={0}
      role="region"
      aria-label="Session timeline"
      data-testid="capsule-timeline"
    >
      {events.length === 0 ? (
        <p className="p-5 text-sm text-zinc-600 dark:text-zinc-400">No events were recorded for this session.</p>
      ) : (
        <ol className="relative flex flex-col gap-0 p-5">
          {events.map((event, index) => (
            <li key={event.id} className="relative flex gap-3 pb-5 last:pb-0" data-testid="timeline-event" data-event-type={event.eventType}>
              {index < events.length - 1 ? (
                <span aria-hidden className="absolute top-8 bottom-0 left-[15px] w-px bg-zinc-200 dark:bg-zinc-800" />
              ) : null}
              <span className="relative grid h-8 w-8 shrink-0 place-items-center rounded-full bg-brand/10 text-brand-strong">
                {ICONS[event.eventType]}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1 pt-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <p className="font-medium" data-testid="timeline-event-type">
                    {capsuleEventLabel(event.eventType)}
                  </p>
                  <time dateTime={event.timestamp} className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
                    {formatClock(event.timestamp) || event.timestamp}
                  </time>
                </div>
                <EventDetails event={event} />
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

/** Model and iteration chips, and "Enhanced" on the steps that enhanced the prompt, and on no other. */
function EventDetails({ event }: { event: CapsuleEvent }) {
  const { data } = event;
  const chips: { label: string; value: string }[] = [];
  if (data.model) chips.push({ label: 'Model', value: data.model });
  if (data.iteration !== undefined) chips.push({ label: 'Iteration', value: String(data.iteration) });
  const enhanced = isEnhancedStep(event);
  return (
    <>
      {chips.length > 0 || enhanced ? (
        <ul className="flex flex-wrap gap-1.5">
          {chips.map((chip) => (
            <li key={chip.label} className="rounded-md bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
              <span className="text-zinc-500 dark:text-zinc-400">{chip.label}:</span> {chip.value}
            </li>
          ))}
          {enhanced ? (
            <li className="rounded-md bg-brand/10 px-2 py-0.5 text-xs font-medium text-brand-strong" data-testid="timeline-enhanced">
              Enhanced
            </li>
          ) : null}
        </ul>
      ) : null}
      {data.reason ? <p className="text-sm break-words whitespace-pre-wrap text-zinc-600 dark:text-zinc-400">{data.reason}</p> : null}
    </>
  );
}
