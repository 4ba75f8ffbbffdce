/**
 * HTTP with a server started in the sandbox (preview-server.ts), from the host, through the relay's
 * socket: one exchange at a time, and the server's output kept so that an error answer can be
 * shown with what the server printed for it.
 */
import { request as httpRequest } from 'node:http';
import { trimOutput } from './output.js';
import type { PreviewServer } from './preview-server.js';
import { RELAY_MARK } from './preview-relay.js';
import { environmentGap } from './start-verdict.js';

/** An answer slower than this is left alone: a long poll or a stream is not a defect. */
export const REQUEST_MS = 3000;
/** Server output arriving after an error answer still belongs to it (pipes and sockets race). */
const OUTPUT_SETTLE_MS = 150;

// What a server that needs the network prints when the sandbox has none.
const NO_NETWORK = /\b(EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH)\b|fetch failed|getaddrinfo/;

/**
 * What the sandbox lacked, when an error answer's output says so (a database, a secret, the
 * network): correct code answers 500 without them too, so that is not counted against it.
 */
export function sandboxGap(output: string | undefined): string | undefined {
  if (output === undefined) return undefined;
  return environmentGap(output) ?? (NO_NETWORK.test(output) ? 'it needs the network, which the sandbox does not have' : undefined);
}

/** What the server printed, so that an error answer can be shown with the output it caused. */
export class ServerOutput {
  private text = '';
  /** Characters no longer kept, so that marks stay positions in all the output. */
  private dropped = 0;
  take(chunk: Buffer): void {
    this.text += chunk.toString('utf8');
    const over = this.text.length - 64 * 1024;
    if (over > 0) {
      this.text = this.text.slice(over);
      this.dropped += over;
    }
  }
  mark(): number {
    return this.dropped + this.text.length;
  }
  /**
   * Printed since `mark`, without the relay's lines; else what the answer's body says (Express
   * shows the error's stack in its own error page when the app prints nothing).
   */
  async since(mark: number, body?: Buffer): Promise<string | undefined> {
    await new Promise((resolve) => setTimeout(resolve, OUTPUT_SETTLE_MS));
    const printed = this.text.slice(Math.max(0, mark - this.dropped));
    const text = printed.split('\n').filter((l) => !l.startsWith(RELAY_MARK)).join('\n').trim() || (body ? bodyText(body) : '');
    return text ? trimOutput(text) : undefined;
  }
}

/** An error page's text: tags dropped, entities of whitespace and markup undone. */
function bodyText(body: Buffer): string {
  const text = body.subarray(0, 16 * 1024).toString('utf8');
  return text
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

export type Answer = { status: number; headers: Record<string, string>; body: Buffer } | { failed: 'closed' | 'timeout'; detail: string };

/**
 * One HTTP exchange with the server through the relay's socket. With `statusOnly` a good answer
 * resolves once its status is in (a stream's body never ends), the rest read and dropped in the
 * background; an error answer is still read whole, for what it says.
 */
export function ask(server: PreviewServer, method: string, path: string, headers: Record<string, string>, body?: Buffer | null, statusOnly = false): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest({ socketPath: server.socketPath, method, path, headers: { ...headers, host: `localhost:${server.port}`, connection: 'close' } }, (res) => {
      if (statusOnly && (res.statusCode ?? 502) < 500) {
        resolve({ status: res.statusCode ?? 502, headers: {}, body: Buffer.alloc(0) });
        res.resume();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'transfer-encoding' && k !== 'content-length') out[k] = Array.isArray(v) ? v.join(k === 'set-cookie' ? '\n' : ', ') : v;
        resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
      });
      res.on('error', (error) => resolve({ failed: 'closed', detail: error.message }));
    });
    req.setTimeout(REQUEST_MS, () => {
      resolve({ failed: 'timeout', detail: `no answer within ${REQUEST_MS / 1000} s` });
      req.destroy();
    });
    req.on('error', (error) => resolve({ failed: 'closed', detail: error.message }));
    req.end(body ?? undefined);
  });
}
