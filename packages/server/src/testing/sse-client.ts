import { decodeEventStream, pipelineEvent, type PipelineEvent } from '@wolfpack/core';

export interface ReceivedEvent {
  id: number;
  event: PipelineEvent;
}

/**
 * Reads a pipeline event stream as a browser would: every event with its id, decoded and
 * validated with the same core schema the clients use. `stopAfter` drops the connection early.
 */
export async function readEvents(
  url: string,
  init: RequestInit & { stopAfter?: (e: ReceivedEvent, all: ReceivedEvent[]) => boolean } = {},
): Promise<{ status: number; headers: Headers; events: ReceivedEvent[]; body?: string }> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, headers: res.headers, events: [], body: await res.text() };
  }
  const events: ReceivedEvent[] = [];
  try {
    for await (const message of decodeEventStream(res.body!, pipelineEvent)) {
      const received = { id: Number(message.id), event: message.data };
      events.push(received);
      if (init.stopAfter?.(received, events)) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, headers: res.headers, events };
}

/** Runs one build of `idea` as the signed-in holder of `cookie`; its stream must end in `complete`. */
export async function completeBuild(baseUrl: string, cookie: string, idea: string): Promise<ReceivedEvent[]> {
  const { status, events, body } = await readEvents(`${baseUrl}/api/wolfpack/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ idea }),
  });
  if (status !== 200 || events.at(-1)?.event.type !== 'complete') throw new Error(`The build of "${idea}" did not complete: ${status} ${body ?? events.at(-1)?.event.type}`);
  return events;
}
