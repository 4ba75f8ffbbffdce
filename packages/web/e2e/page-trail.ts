/**
 * What a test's page did, kept so that a test which times out says where it stood: Vitest's
 * timeout names the test, not the await it hung on, and a hang inside the browser (a navigation
 * that never commits, a renderer that stops answering) leaves no error of its own.
 */
import type { Page, Request } from 'playwright-core';

/** The last entries kept: enough for the steps before a hang, short enough to read. */
const KEPT = 40;

export class PageTrail {
  private readonly started = Date.now();
  private readonly entries: string[] = [];
  private readonly pending = new Map<Request, number>();

  constructor(page: Page) {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.add(`navigated to ${frame.url()}`);
    });
    page.on('load', () => this.add('load'));
    page.on('crash', () => this.add('the page crashed'));
    page.on('close', () => this.add('closed'));
    page.on('pageerror', (error) => this.add(`page error: ${error.message}`));
    page.on('request', (request) => this.pending.set(request, Date.now()));
    // Answered, not finished: an event stream's body goes on, and the body of a 401 the app does
    // not read was not reported finished at all.
    page.on('response', (response) => this.settle(response.request(), `answered ${response.status()}`));
    page.on('requestfailed', (request) => this.settle(request, `failed (${request.failure()?.errorText ?? 'no reason'})`));
  }

  /** The entries, then the requests still open, one per line with its time since the page opened. */
  describe(): string {
    const open = [...this.pending].map(([request, at]) => `${this.stamp(at)} still open: ${request.method()} ${request.url()}`);
    return [...this.entries, ...open].join('\n');
  }

  private settle(request: Request, outcome: string): void {
    const at = this.pending.get(request) ?? request.timing().startTime;
    this.pending.delete(request);
    // Documents and API calls say what the app asked for; scripts, styles and images do not.
    const type = request.resourceType();
    if (type === 'document' || type === 'fetch' || type === 'eventsource') {
      this.add(`${request.method()} ${new URL(request.url()).pathname} ${outcome} after ${Math.round(Date.now() - at)} ms`);
    }
  }

  private add(entry: string): void {
    this.entries.push(`${this.stamp(Date.now())} ${entry}`);
    if (this.entries.length > KEPT) this.entries.shift();
  }

  private stamp(at: number): string {
    return `+${((at - this.started) / 1000).toFixed(1)} s`;
  }
}
