import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { signedInAs } from '../services/accounts/auth-service.js';
import type { DatabaseSessionStore } from '../services/accounts/session-store.js';
import type { RunService } from '../services/runs/run-service.js';
import { touchDue } from '../middleware/authenticate.js';
import { SECURITY_HEADERS } from '../middleware/security-headers.js';
import type { SigningKeys } from '../middleware/signing-keys.js';
import { followRun, lastEventIdFrom } from './follow-run.js';
import { openEventStream } from './sse-writer.js';

/** The session's cookie (koa-session's `key` in app.ts); its signature is the same name with `.sig`. */
export const SESSION_COOKIE = 'wolfpack.sid';

/** `GET /api/wolfpack/runs/{id}/events`, with at most a `lastEventId` query; run ids are UUIDs. */
const EVENTS_PATH = /^\/api\/wolfpack\/runs\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/events(?:\?lastEventId=([0-9]+))?$/;
/** As the cookies library Koa uses finds a cookie: the first of that name, the value up to `;`. */
const cookiePattern = (name: string) => new RegExp(`(?:^|;) *${name.replaceAll('.', '\\.')}=([^;]*)`);
const SESSION_VALUE = cookiePattern(SESSION_COOKIE);
const SESSION_SIGNATURE = cookiePattern(`${SESSION_COOKIE}.sig`);

export interface StreamLaneDeps {
  sessions: DatabaseSessionStore;
  keys: SigningKeys;
  runs: RunService;
  heartbeatMs: number;
  /** The Koa application: every other request, and every open the lane leaves to it. */
  app: { emit(event: 'error', error: unknown): unknown };
  koa: RequestListener;
}

/**
 * The HTTP server's request listener: Koa, except for the usual open of a run's event stream,
 * which is served without it.
 *
 * Why: a crowd of clients opens streams at once (a server restarted, its clients coming back), and
 * each open is one request that only reads. Through Koa it made a context, a session and a
 * cookie jar, passed a dozen middleware and two routers, and Koa's listener for the response's
 * end kept the whole context for as long as the stream stayed open (on-finished's listeners with
 * it): a third of a stream's heap. Here an open is a signature check, the session's read (the
 * same statement, batched the same way) and the run's owner.
 *
 * Only what Koa would have done nothing but read is served here: a signed-in session by cookie,
 * signed with the newest key, valid, of an account that is not closed, not due to have its idle
 * deadline pushed back, on a run that is the user's, with a Last-Event-ID that is a number.
 * Anything else (an API token, no session or a bad one, a key rotated, a session to touch, a
 * run not found, a malformed Last-Event-ID, the database failing) is handed to Koa, which
 * answers it as it always has (401, 404, 400, the cookie again). Nothing is written before that.
 */
export function streamLane({ sessions, keys, runs, heartbeatMs, app, koa }: StreamLaneDeps): RequestListener {
  const serve = async (req: IncomingMessage, res: ServerResponse, runId: string, query: string | undefined): Promise<boolean> => {
    const { cookie, authorization } = req.headers;
    if (authorization !== undefined || cookie === undefined) return false;
    const value = SESSION_VALUE.exec(cookie)?.[1];
    const signature = SESSION_SIGNATURE.exec(cookie)?.[1];
    if (!value || !signature || value.startsWith('"') || keys.index(`${SESSION_COOKIE}=${value}`, signature) !== 0) return false;
    const header = req.headers['last-event-id'];
    const after = lastEventIdOf(typeof header === 'string' ? header : undefined, query);
    if (after === undefined) return false;
    const { session, user: row } = await sessions.getWithUser(value);
    // koa-session's own checks of what the store answered, then authenticate's.
    if (!session || (typeof session._expire === 'number' && session._expire < Date.now())) return false;
    if (typeof session.userId !== 'string' || !row || row.id !== session.userId || touchDue(session)) return false;
    const user = signedInAs(row);
    if (!user) return false;
    if (!(await runs.assertOwned(user, runId).then(() => true, () => false))) return false;
    if (res.headersSent || res.destroyed) return true;
    followRun(openEventStream(res, app, heartbeatMs, SECURITY_HEADERS), runs, { id: user.id }, runId, after, app);
    return true;
  };
  return (req, res) => {
    const match = req.method === 'GET' && req.url !== undefined ? EVENTS_PATH.exec(req.url) : null;
    if (!match) return koa(req, res);
    serve(req, res, match[1]!, match[2]).then(
      (served) => served || koa(req, res),
      // Koa then meets the same failure and answers it as it answers any (unless the stream is out).
      () => void (res.headersSent || koa(req, res)),
    );
  };
}

/** {@link lastEventIdFrom}, or undefined where Koa answers 400. */
function lastEventIdOf(header: string | undefined, query: string | undefined): number | undefined {
  try {
    return lastEventIdFrom(header, query);
  } catch {
    return undefined;
  }
}
