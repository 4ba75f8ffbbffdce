import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { fakeSubscriptionBook } from './fake-stripe-subscriptions.js';
import {
  decodeStripeForm,
  FormError,
  invalid,
  missing,
  noSuch,
  optionalString,
  optionalUrl,
  randomId,
  readLineItems,
  readMetadata,
  StripeApiError,
  stripeErrorBody,
  unixNow,
  type FakeLineItem,
  type FormObject,
} from './stripe-wire.js';

export type { FakeLineItem } from './stripe-wire.js';

export interface FakeCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface FakeStripeOptions {
  /** The one secret key accepted; by default any `sk_test_` key. */
  secretKey?: string;
  /** The card completed payments are made with. */
  card?: FakeCard;
}

export interface StripeRequestRecord {
  method: string;
  path: string;
  /** Form body (POST) or query (GET), decoded as Stripe decodes it. */
  params: FormObject;
  idempotencyKey: string | undefined;
  status: number;
}

/** A Checkout Session as the API returns it (the fields Wolfpack and its tests read). */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number | null;
  amount_total: number | null;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string | null;
  customer: string | null;
  customer_details: { email: string; name: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: 'payment' | 'subscription' | 'setup';
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  subscription: string | null;
  success_url: string | null;
  ui_mode: 'hosted';
  url: string | null;
}

type Json = Record<string, unknown>;

const SESSION_PARAMS = new Set(['mode', 'line_items', 'success_url', 'cancel_url', 'client_reference_id', 'metadata', 'customer_email', 'customer', 'payment_method_types', 'expand', 'payment_intent_data', 'locale', 'allow_promotion_codes', 'expires_at', 'submit_type', 'billing_address_collection', 'customer_creation', 'subscription_data', 'ui_mode']);
const DEFAULT_CARD: FakeCard = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };


/**
 * A local Stripe API, as much as Checkout needs, speaking Stripe's wire format to the official SDK
 * (`new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`) and as unkind as Stripe:
 * form-encoded parameters with bracket notation, unknown parameters and routes refused with
 * Stripe's error JSON, `Authorization: Bearer sk_test_…` required, Idempotency-Key replays the first
 * answer (and refuses the same key with other parameters). Tests drive payments with
 * `completeSession` / `asyncPaymentSucceeded` and sign the events with `signedWebhook`.
 */
export async function startFakeStripe(options: FakeStripeOptions = {}) {
  const sessions = new Map<string, FakeSession>();
  const lineItems = new Map<string, FakeLineItem[]>();
  const paymentIntents = new Map<string, Json>();
  const charges = new Map<string, Json>();
  const paymentMethods = new Map<string, Json>();
  const book = fakeSubscriptionBook((type, object) => fake.event(type, object));
  const { subscriptions } = book;
  /** subscription_data[metadata] of subscription-mode sessions: the subscription carries it. */
  const subscriptionMetadata = new Map<string, Record<string, string>>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const requests: StripeRequestRecord[] = [];
  const failures: Array<{ method: string; prefix: string; status: number; times: number }> = [];
  let base = '';

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req_', 14), 'stripe-version': Stripe.API_VERSION, ...headers });
    res.end(JSON.stringify(body, null, 2));
  };

  const authenticate = (req: IncomingMessage): string => {
    const header = req.headers.authorization ?? '';
    const key = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    if (!key) {
      throw new StripeApiError(401, { type: 'invalid_request_error', message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/." });
    }
    const accepted = options.secretKey ? key === options.secretKey : /^sk_test_\w{8,}$/.test(key);
    if (!accepted) {
      const masked = `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
      throw new StripeApiError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${masked}` });
    }
    return key;
  };

  const expandList = (params: FormObject, allowed: string[]): string[] => {
    const expand = params.expand ?? [];
    if (!Array.isArray(expand)) throw invalid('Invalid array', 'expand');
    return expand.map((e, i) => {
      if (typeof e !== 'string' || !allowed.includes(e)) throw invalid(`This property cannot be expanded (${String(e)}).`, `expand[${i}]`);
      return e;
    });
  };
  const rejectUnknown = (params: FormObject, known: Set<string>) => {
    for (const key of Object.keys(params)) {
      if (!known.has(key)) throw invalid(`Received unknown parameter: ${key}`, key, 'parameter_unknown');
    }
  };

  const createSession = (params: FormObject): FakeSession => {
    rejectUnknown(params, SESSION_PARAMS);
    const mode = optionalString(params, 'mode');
    if (!mode) throw missing('mode');
    if (mode !== 'payment' && mode !== 'subscription' && mode !== 'setup') throw invalid(`Invalid mode: must be one of payment, setup, or subscription`, 'mode');
    const successUrl = optionalUrl(params, 'success_url');
    const cancelUrl = optionalUrl(params, 'cancel_url');
    const clientReferenceId = optionalString(params, 'client_reference_id');
    if (clientReferenceId !== undefined && clientReferenceId.length > 200) throw invalid('Invalid client_reference_id: must be at most 200 characters', 'client_reference_id');
    const metadata = readMetadata(params.metadata);
    expandList(params, ['line_items', 'payment_intent']);
    const sessionId = randomId('cs_test_', 58);
    const subscriptionData = params.subscription_data;
    if (subscriptionData !== undefined) {
      if (mode !== 'subscription') throw invalid('You can only specify `subscription_data` in `subscription` mode.', 'subscription_data');
      if (typeof subscriptionData !== 'object' || Array.isArray(subscriptionData)) throw invalid('Invalid hash', 'subscription_data');
      const unknown = Object.keys(subscriptionData).find((k) => !['metadata', 'description', 'trial_period_days'].includes(k));
      if (unknown) throw invalid(`Received unknown parameter: subscription_data[${unknown}]`, `subscription_data[${unknown}]`, 'parameter_unknown');
      subscriptionMetadata.set(sessionId, readMetadata(subscriptionData.metadata));
    }
    const items = mode === 'setup' ? [] : readLineItems(params.line_items, mode);
    const currency = items[0]?.currency ?? null;
    if (items.some((i) => i.currency !== currency)) throw invalid('All line items must use the same currency.', 'line_items');
    const total = items.reduce((sum, i) => sum + i.amount_total, 0);
    if (currency === 'usd' && mode === 'payment' && total < 50) throw invalid("The Checkout Session's total amount due must add up to at least $0.50 usd", 'line_items', 'amount_too_small');
    const created = unixNow();
    const session: FakeSession = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: mode === 'setup' ? null : total,
      amount_total: mode === 'setup' ? null : total,
      cancel_url: cancelUrl ?? null,
      client_reference_id: clientReferenceId ?? null,
      created,
      currency,
      customer: null,
      customer_details: null,
      customer_email: optionalString(params, 'customer_email') ?? null,
      expires_at: created + 24 * 3600,
      livemode: false,
      metadata,
      mode,
      payment_intent: null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      subscription: null,
      success_url: successUrl ?? null,
      ui_mode: 'hosted',
      url: `${base}/c/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    lineItems.set(sessionId, items);
    return session;
  };

  const sessionJson = (session: FakeSession, expand: string[]): Json => {
    const json: Json = { ...session, metadata: { ...session.metadata } };
    if (expand.includes('line_items')) json.line_items = { object: 'list', data: lineItems.get(session.id) ?? [], has_more: false, url: `/v1/checkout/sessions/${session.id}/line_items` };
    if (expand.includes('payment_intent') && session.payment_intent) json.payment_intent = paymentIntentJson(session.payment_intent, []);
    return json;
  };
  const paymentIntentJson = (intentId: string, expand: string[]): Json => {
    const intent = { ...paymentIntents.get(intentId)! };
    if (expand.includes('latest_charge') && typeof intent.latest_charge === 'string') intent.latest_charge = charges.get(intent.latest_charge);
    if (expand.includes('payment_method') && typeof intent.payment_method === 'string') intent.payment_method = paymentMethods.get(intent.payment_method);
    return intent;
  };

  const route = (method: string, path: string, params: FormObject): unknown => {
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(params);
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && session) {
      rejectUnknown(params, new Set(['expand']));
      const found = sessions.get(session[1]!);
      if (!found) throw noSuch('checkout.session', session[1]!, 'session');
      return sessionJson(found, expandList(params, ['line_items', 'payment_intent']));
    }
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && intent) {
      rejectUnknown(params, new Set(['expand', 'client_secret']));
      if (!paymentIntents.has(intent[1]!)) throw noSuch('payment_intent', intent[1]!, 'intent');
      return paymentIntentJson(intent[1]!, expandList(params, ['latest_charge', 'payment_method', 'customer']));
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscription) {
      const found = subscriptions.get(subscription[1]!);
      if (!found) throw noSuch('subscription', subscription[1]!, 'id');
      if (method === 'GET') {
        rejectUnknown(params, new Set(['expand']));
        expandList(params, []);
        return structuredClone(found);
      }
      if (method === 'POST') {
        rejectUnknown(params, new Set(['cancel_at_period_end', 'metadata']));
        if (found.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
        const cancel = optionalString(params, 'cancel_at_period_end');
        if (cancel !== undefined) {
          if (cancel !== 'true' && cancel !== 'false') throw invalid('Invalid boolean: ' + cancel, 'cancel_at_period_end');
          book.setCancel(found, cancel === 'true');
        }
        if (params.metadata !== undefined) found.metadata = { ...(found.metadata as object), ...readMetadata(params.metadata) };
        return structuredClone(found);
      }
    }
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` });
  };

  const handle = (req: IncomingMessage, raw: string, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const record: StripeRequestRecord = { method, path: url.pathname, params: {}, idempotencyKey: header(req, 'idempotency-key'), status: 0 };
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      requests.push(record);
      send(res, status, body, headers);
    };
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && page) {
      // The hosted Checkout page: enough for a browser test to land on it.
      const s = sessions.get(page[1]!);
      res.writeHead(s ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(s ? `<!doctype html><title>Fake Stripe Checkout</title><h1>Pay ${(s.amount_total ?? 0) / 100} ${s.currency?.toUpperCase()}</h1><p>${s.id}</p>` : '<h1>Not found</h1>');
      return;
    }
    try {
      const key = authenticate(req);
      const failure = failures.find((f) => f.method === method && url.pathname.startsWith(f.prefix) && f.times > 0);
      if (failure) failure.times -= 1;
      if (failure) throw new StripeApiError(failure.status, { type: 'api_error', message: 'An unknown error occurred' }, { 'stripe-should-retry': 'false' });
      if (method === 'POST' && raw && !/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) {
        throw invalid('Invalid request (check that your POST content type is application/x-www-form-urlencoded). If you have any questions, we can help at https://support.stripe.com/.');
      }
      record.params = decodeStripeForm(method === 'POST' ? raw : url.search.slice(1));
      const idemKey = method === 'POST' ? record.idempotencyKey : undefined;
      if (idemKey !== undefined && idemKey.length > 255) throw invalid('Idempotency-Key must be at most 255 characters long.');
      const fingerprint = `${method} ${url.pathname} ${JSON.stringify(record.params)}`;
      const stored = idemKey ? idempotent.get(`${key} ${idemKey}`) : undefined;
      if (stored && stored.fingerprint !== fingerprint) {
        throw new StripeApiError(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.` });
      }
      if (stored) return reply(stored.status, stored.body, { 'idempotent-replayed': 'true', 'idempotency-key': idemKey! });
      const body = route(method, url.pathname, record.params);
      if (idemKey) idempotent.set(`${key} ${idemKey}`, { fingerprint, status: 200, body });
      return reply(200, body, idemKey ? { 'idempotency-key': idemKey } : {});
    } catch (error) {
      if (error instanceof StripeApiError) return reply(error.status, { error: stripeErrorBody(error) }, error.headers);
      if (error instanceof FormError) return reply(400, { error: { type: 'invalid_request_error', message: error.message } });
      return reply(500, { error: { type: 'api_error', message: String(error) } });
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  const openSession = (sessionId: string): FakeSession => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
    return session;
  };

  /** A paid subscription-mode checkout: its customer, subscription and first (paid) invoice. */
  const startSubscription = (session: FakeSession, created: number): string => {
    const item = lineItems.get(session.id)?.[0];
    if (!item) throw new Error(`fake Stripe: session ${session.id} has no line item`);
    session.customer = randomId('cus_', 14);
    return book.start({ customer: session.customer, item, metadata: subscriptionMetadata.get(session.id) ?? {}, created });
  };

  const fake = {
    url: base,
    host: '127.0.0.1',
    port,
    sessions,
    requests,
    lineItems: (sessionId: string) => lineItems.get(sessionId) ?? [],
    /** The session behind a checkout URL this fake handed out. */
    sessionByUrl(checkoutUrl: string): FakeSession | undefined {
      return [...sessions.values()].find((s) => s.url === checkoutUrl);
    },
    /** Answers requests of `method` under `prefix` with an api_error of `status` from now on (or the next `times` of them). */
    failRequests(method: string, prefix: string, status = 500, times = Number.POSITIVE_INFINITY) {
      failures.push({ method, prefix, status, times });
    },
    /** An event as Stripe sends it, around a copy of `object`. */
    event(type: string, object: object): Stripe.Event {
      return {
        id: randomId('evt_', 24),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: unixNow(),
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      } as unknown as Stripe.Event;
    },
    /**
     * The customer paid (or, with `paid: false`, submitted a delayed payment method): the session
     * completes, a payment intent with its charge and card appears, and the
     * `checkout.session.completed` event is returned (sign it with `signedWebhook`).
     */
    completeSession(sessionId: string, { paid = true, card = options.card ?? DEFAULT_CARD }: { paid?: boolean; card?: FakeCard } = {}): Stripe.Event {
      const session = openSession(sessionId);
      if (session.status !== 'open') throw new Error(`fake Stripe: session ${sessionId} is ${session.status}`);
      const created = unixNow();
      const pm = randomId('pm_');
      const ch = randomId('ch_');
      const pi = randomId('pi_');
      const cardJson = { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear, funding: 'credit', country: 'US', display_brand: card.brand };
      paymentMethods.set(pm, { id: pm, object: 'payment_method', type: 'card', card: cardJson, created, customer: null, livemode: false, metadata: {} });
      charges.set(ch, { id: ch, object: 'charge', amount: session.amount_total, currency: session.currency, paid, status: paid ? 'succeeded' : 'pending', payment_intent: pi, payment_method: pm, payment_method_details: { type: 'card', card: cardJson }, created, livemode: false });
      paymentIntents.set(pi, { id: pi, object: 'payment_intent', amount: session.amount_total, amount_received: paid ? session.amount_total : 0, currency: session.currency, status: paid ? 'succeeded' : 'processing', latest_charge: ch, payment_method: pm, payment_method_types: ['card'], customer: null, metadata: {}, created, livemode: false });
      session.status = 'complete';
      session.payment_status = paid ? 'paid' : 'unpaid';
      session.payment_intent = session.mode === 'payment' ? pi : null;
      session.subscription = session.mode === 'subscription' && paid ? startSubscription(session, created) : null;
      session.customer_details = { email: session.customer_email ?? 'buyer@example.com', name: null };
      return fake.event('checkout.session.completed', sessionJson(session, []));
    },
    subscriptions,
    invoices: book.invoices,
    ...book.events,
    /** The delayed payment of a completed session succeeded: `checkout.session.async_payment_succeeded`. */
    asyncPaymentSucceeded(sessionId: string): Stripe.Event {
      const session = openSession(sessionId);
      if (session.status !== 'complete') throw new Error(`fake Stripe: session ${sessionId} is not complete`);
      session.payment_status = 'paid';
      const intent = session.payment_intent ? paymentIntents.get(session.payment_intent) : undefined;
      if (intent) {
        Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
        Object.assign(charges.get(String(intent.latest_charge)) ?? {}, { paid: true, status: 'succeeded' });
      }
      return fake.event('checkout.session.async_payment_succeeded', sessionJson(session, []));
    },
    /** The session timed out unpaid: `checkout.session.expired`. */
    expireSession(sessionId: string): Stripe.Event {
      const session = openSession(sessionId);
      session.status = 'expired';
      session.url = null;
      return fake.event('checkout.session.expired', sessionJson(session, []));
    },
    /** The body Stripe would post (pretty JSON, as Stripe sends it) and its Stripe-Signature header. */
    signedWebhook(event: object, secret: string, timestamp = unixNow()): { body: string; header: string } {
      const body = JSON.stringify(event, null, 2);
      return { body, header: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) };
    },
    /** Posts a signed event to a webhook URL with the headers Stripe sends (no Origin, no cookies). */
    async deliver(webhookUrl: string, event: object, secret: string): Promise<{ status: number; json: Json }> {
      const { body, header } = fake.signedWebhook(event, secret);
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', accept: '*/*; q=0.5, application/xml', 'cache-control': 'no-cache' },
        body,
      });
      const text = await res.text();
      return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
    },
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
  return fake;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

