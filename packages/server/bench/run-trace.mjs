// Loaded into the server's process by `BENCH_TRACE=1 pnpm bench stream` (NODE_OPTIONS=--import):
// timestamps of a run's own steps (the server's `wolfpack:run-trace` channel), of the stream
// request's arrival and of each engine call's request and answer as Node's fetch reports them,
// all on the wall clock the bench also reads. Kept in memory and written when the process exits,
// so tracing adds no file write to the run it measures.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_TRACE_FILE;
const marks = [];
const now = () => performance.timeOrigin + performance.now();
const mark = (step) => marks.push({ step, at: now() });
const isEngineCall = (request) => String(request.path).endsWith('/chat/completions');

subscribe('wolfpack:run-trace', ({ step, at }) => marks.push({ step, at }));
subscribe('http.server.request.start', ({ request }) => {
  if (request.method === 'POST' && request.url === '/api/wolfpack/stream') mark('request');
});
subscribe('undici:request:bodySent', ({ request }) => isEngineCall(request) && mark('engine-request-sent'));
subscribe('undici:request:trailers', ({ request }) => isEngineCall(request) && mark('engine-answer-read'));
if (file) process.on('exit', () => writeFileSync(file, JSON.stringify(marks)));
