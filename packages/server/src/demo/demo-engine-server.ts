import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { demoReply } from '@wolfpack/core/demo';
import type { ChatMessage } from '@wolfpack/core/engines';

export interface DemoEngineServer {
  baseURL: string;
  close(): Promise<void>;
}

export interface DemoEngineServerOptions {
  /** Pause before answering each call, so a demo run is slow enough to watch (and to test reattach). */
  delayMs?: number | (() => number);
  /**
   * Streamed answers only: spread the answer over the delay, a delta every `paceMs`, as a real
   * engine streams its tokens while it generates them (0, the default: all of it after the delay).
   */
  paceMs?: number | (() => number);
  /** Told of each call when its answer has been sent: when its request arrived and when it ended (performance.now()). */
  onCall?: (startedAt: number, endedAt: number) => void;
}

const MAX_BODY = 64 * 1024 * 1024;

/**
 * The offline demo engines behind a loopback OpenAI-compatible endpoint
 * (POST /v1/chat/completions, streaming or not), so they go through the same SDK adapter,
 * watchdog, retries and parsers as real engines. Listens on 127.0.0.1 only.
 */
export async function startDemoEngineServer(options: DemoEngineServerOptions = {}): Promise<DemoEngineServer> {
  const server: Server = createServer((req, res) => {
    const startedAt = performance.now();
    if (options.onCall) res.once('finish', () => options.onCall!(startedAt, performance.now()));
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error', code: 'not_found' } }));
        return;
      }
      const body = JSON.parse(await readBody(req)) as { model: string; messages: ChatMessage[]; stream?: boolean };
      const delayMs = typeof options.delayMs === 'function' ? options.delayMs() : (options.delayMs ?? 0);
      const paceMs = typeof options.paceMs === 'function' ? options.paceMs() : (options.paceMs ?? 0);
      const paced = body.stream === true && paceMs > 0 && delayMs > paceMs;
      if (delayMs > 0 && !paced) await sleep(delayMs);
      const text = demoReply(body.messages);
      const promptChars = JSON.stringify(body.messages).length;
      const usage = {
        prompt_tokens: Math.ceil(promptChars / 4),
        completion_tokens: Math.ceil(text.length / 4),
        total_tokens: Math.ceil(promptChars / 4) + Math.ceil(text.length / 4),
      };
      const id = `chatcmpl-${randomUUID()}`;
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }, null));
      if (paced) {
        // A delta every paceMs, the last one when the delay is up.
        const steps = Math.floor(delayMs / paceMs);
        const size = Math.ceil(text.length / steps);
        for (let step = 1; step <= steps; step++) {
          await sleep(startedAt + (delayMs * step) / steps - performance.now());
          res.write(chunk({ content: text.slice((step - 1) * size, step * size) }, null));
        }
      } else {
        // Several deltas, as a real stream would send them.
        for (let i = 0; i < text.length; i += 2048) res.write(chunk({ content: text.slice(i, i + 2048) }, null));
      }
      res.write(chunk({}, 'stop'));
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage })}\n\n`);
      res.end('data: [DONE]\n\n');
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Demo engine could not read the request: ${(error as Error).message}`, type: 'invalid_request_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
