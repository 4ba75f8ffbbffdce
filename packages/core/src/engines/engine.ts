/**
 * The engine interface: one chat completion, streamed, with token usage. Adapters (openai,
 * anthropic) implement it over the official SDKs; the pipeline and the enhancer only see this.
 */

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; dataUrl: string; mimeType: string };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  /** Plain text, or parts when images are attached (only sent to engines that accept images). */
  content: string | ContentPart[];
}

export interface EngineRequest {
  messages: ChatMessage[];
  /** Upper bound of output tokens for this call. */
  maxTokens?: number;
  temperature?: number;
  /** Aborts the call (client gone for good, run cancelled). */
  signal?: AbortSignal;
  /** Called with each text delta as it streams in. */
  onDelta?: (text: string) => void;
  /**
   * Called before a retry. The next attempt starts from scratch, so whatever `onDelta` delivered
   * so far is void: a consumer that shows live text should clear it here.
   */
  onRetry?: (info: EngineRetryInfo) => void;
}

export interface EngineRetryInfo {
  /** The attempt that is about to start (2 = first retry). */
  attempt: number;
  /** How long we wait before it. */
  delayMs: number;
  /** Why the previous attempt failed. */
  error: EngineError;
}

export interface EngineUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface EngineResult {
  text: string;
  usage: EngineUsage;
  /** 'length' means the output was cut at maxTokens: the text is truncated. */
  finishReason: 'stop' | 'length' | 'other';
  durationMs: number;
  /** How many attempts the call took (1 = no retry). */
  attempts: number;
  /**
   * True when the endpoint reported no token usage (some OpenAI-compatible servers don't) and
   * `usage` is an estimate of about 4 characters per token.
   */
  usageEstimated?: boolean;
  /**
   * Set when the reported usage was unusable (estimated instead) or more than the call could have
   * used (cut to that): a sentence for the run's log.
   */
  usageProblem?: string;
}

export type EngineProvider = 'openai' | 'anthropic';

export interface Engine {
  /** The public, generic name (what modelOrder lists and the interface shows). Never a vendor name. */
  readonly key: string;
  /** Server-side only: never sent to clients. */
  readonly provider: EngineProvider;
  /** Server-side only: never sent to clients. */
  readonly model: string;
  readonly supportsImages: boolean;
  /** Context window in tokens, used to trim inputs (existing files of a continued project). */
  readonly contextTokens: number;
  /** Price per 1,000 tokens in integer cents (may be fractional cents per 1k; billing rounds). */
  readonly pricePer1kTokensCents: number;
  complete(request: EngineRequest): Promise<EngineResult>;
}

/** Why an engine call failed, in terms a person can act on. */
export type EngineErrorKind =
  | 'auth' // bad or missing API key
  | 'model_not_found'
  | 'quota' // out of credit / quota exceeded
  | 'rate_limit'
  | 'timeout' // no answer at all in time
  | 'stalled' // stream started, then no chunk within the watchdog interval
  | 'server' // 5xx
  | 'connection' // refused, reset, DNS
  | 'bad_request' // 400 other than the above (context too long, bad parameter)
  | 'empty' // the engine answered with nothing
  | 'aborted';

const RETRYABLE: ReadonlySet<EngineErrorKind> = new Set(['rate_limit', 'timeout', 'stalled', 'server', 'connection']);

export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly retryable: boolean;

  constructor(
    readonly engineKey: string,
    readonly kind: EngineErrorKind,
    message: string,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number; attempts?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = RETRYABLE.has(kind);
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
    this.attempts = options?.attempts;
  }

  readonly status: number | undefined;
  /** From a Retry-After header, when the provider gave one. */
  readonly retryAfterMs: number | undefined;
  /** How many attempts were made before giving up (set on the error a call finally throws). */
  readonly attempts: number | undefined;
}

/** What clients may learn about an engine: vendor, model, URL and key stay on the server. */
export interface PublicEngineInfo {
  key: string;
  supportsImages: boolean;
}

export function publicEngineInfo(engine: Pick<Engine, 'key' | 'supportsImages'>): PublicEngineInfo {
  return { key: engine.key, supportsImages: engine.supportsImages };
}
