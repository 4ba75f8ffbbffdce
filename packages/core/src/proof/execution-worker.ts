/**
 * The thread of {@link ExecutionThread} (execution-thread.ts): runs each project it is sent with
 * executeProject and answers with the report; an abort message aborts that job's signal.
 */
import { parentPort } from 'node:worker_threads';
import { executeProject } from './execute-project.js';
import type { FromExecutionWorker, ToExecutionWorker } from './execution-thread.js';
import type { StepLine } from './proof-steps.js';

const port = parentPort;
if (!port) throw new Error('execution-worker.ts runs as a worker thread (see ExecutionThread)');

const aborts = new Map<number, AbortController>();
const answer = (message: FromExecutionWorker) => port.postMessage(message);

port.on('message', (message: ToExecutionWorker) => {
  switch (message.type) {
    case 'run': {
      const { id } = message;
      const controller = new AbortController();
      aborts.set(id, controller);
      const onStep = (line: StepLine) => answer({ type: 'step', id, line });
      executeProject(message.files, { ...message.options, signal: controller.signal, onStep })
        .then(
          (report) => answer({ type: 'done', id, report }),
          (error: unknown) => {
            const { name, message: text } = error instanceof Error ? error : new Error(String(error));
            answer({ type: 'failed', id, name, message: text });
          },
        )
        .finally(() => aborts.delete(id));
      break;
    }
    case 'abort':
      aborts.get(message.id)?.abort();
      break;
    default: {
      const unknown: never = message;
      throw new Error(`unknown message to the execution thread: ${JSON.stringify(unknown)}`);
    }
  }
});
