import { randomBytes } from 'node:crypto';

/**
 * Stripe's wire format for the fake Stripe server: requests encoded as Stripe does (`a[b][0][c]=x`,
 * form body or query string, decoded to `{ a: { b: [{ c: 'x' }] } }`, `expand[]=x` appends, every
 * leaf a string as on the wire), the parameter checks Stripe makes, and its error JSON.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export function decodeStripeForm(text: string): FormObject {
  const root: { [key: string]: Node } = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) throw new FormError(`Invalid parameter name: ${rawKey}`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    insert(root, path, value);
  }
  return normalise(root) as FormObject;
}

export class FormError extends Error {}

type Node = { [key: string]: Node | string } | string;

function insert(root: { [key: string]: Node }, path: string[], value: string): void {
  let node = root;
  for (let i = 0; i < path.length; i += 1) {
    let key = path[i]!;
    const last = i === path.length - 1;
    // `name[]` appends: give it the next free index.
    if (key === '') key = String(Object.keys(node).length);
    if (last) {
      if (typeof node[key] === 'object') throw new FormError(`Invalid value for ${path.slice(0, i + 1).join('.')}: expected a hash.`);
      node[key] = value;
      return;
    }
    const next = node[key];
    if (typeof next === 'string') throw new FormError(`Invalid hash for ${path.slice(0, i + 1).join('.')}.`);
    node = (next ?? (node[key] = {})) as { [key: string]: Node };
  }
}

/** Objects whose keys are 0..n-1 become arrays, as Stripe reads indexed parameters. */
function normalise(node: Node): FormValue {
  if (typeof node === 'string') return node;
  const keys = Object.keys(node);
  const values = Object.fromEntries(keys.map((k) => [k, normalise(node[k]!)]));
  const indexed = keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
  if (!indexed) return values;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((k) => values[String(k)]!);
}

export interface FakeLineItem {
  id: string;
  object: 'item';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  description: string;
  price: { id: string; object: 'price'; currency: string; unit_amount: number; recurring: { interval: string } | null; product: string; type: 'one_time' | 'recurring' };
  quantity: number;
}

/** A Stripe API error: `{ error: { type, message, code?, param? } }` with its status. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string; param?: string },
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }
}

export const invalid = (message: string, param?: string, code?: string) => new StripeApiError(400, { type: 'invalid_request_error', message, param, code });
export const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
export const noSuch = (kind: string, id: string, param: string) => new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });

const CURRENCIES = new Set(['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'jpy', 'sek', 'nok', 'dkk', 'nzd', 'sgd']);

/** Stripe's timestamps: whole seconds since the epoch. */
export const unixNow = () => Math.floor(Date.now() / 1000);

/** Ids shaped like Stripe's: a prefix (`cs_test_`, `pi_`) and random letters and digits. */
export const randomId = (prefix: string, length = 24) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return prefix + [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join('');
};

/** The `error` object of Stripe's error replies. */
export function stripeErrorBody(error: StripeApiError): Record<string, unknown> {
  const { code, param } = error.error;
  return {
    ...(code ? { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}` } : {}),
    message: error.error.message,
    ...(param ? { param } : {}),
    request_log_url: `https://dashboard.stripe.com/test/logs/${randomId('req_', 14)}`,
    type: error.error.type,
  };
}

export function optionalString(params: FormObject, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`Invalid string: ${name}`, name);
  return value;
}

export function optionalUrl(params: FormObject, name: string): string | undefined {
  const value = optionalString(params, name);
  if (value === undefined) return undefined;
  // Stripe accepts the {CHECKOUT_SESSION_ID} placeholder and fills it in on redirect.
  if (!URL.canParse(value.replace('{CHECKOUT_SESSION_ID}', 'x')) || !/^https?:\/\//.test(value)) throw invalid('Not a valid URL', name, 'url_invalid');
  return value;
}

export function readMetadata(value: FormValue | undefined): Record<string, string> {
  if (value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid hash', 'metadata');
  const entries = Object.entries(value);
  if (entries.length > 50) throw invalid('Metadata can have at most 50 keys.', 'metadata');
  for (const [k, v] of entries) {
    if (typeof v !== 'string') throw invalid(`Invalid value for metadata[${k}]: must be a string`, `metadata[${k}]`);
    if (k.length > 40) throw invalid(`Metadata key too long: ${k} (at most 40 characters)`, `metadata[${k}]`);
    if (v.length > 500) throw invalid(`Metadata value too long for ${k} (at most 500 characters)`, `metadata[${k}]`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function integer(value: FormValue | undefined, param: string): number {
  if (value === undefined) throw missing(param);
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${String(value)}`, param, 'parameter_invalid_integer');
  return Number(value);
}

/** Checkout line items with inline `price_data` (the fake has no Price or Product objects). */
export function readLineItems(value: FormValue | undefined, mode: 'payment' | 'subscription'): FakeLineItem[] {
  if (value === undefined) throw missing('line_items');
  if (!Array.isArray(value) || value.length === 0) throw invalid('Invalid array', 'line_items');
  return value.map((item, i) => {
    const p = `line_items[${i}]`;
    if (typeof item !== 'object' || Array.isArray(item)) throw invalid('Invalid hash', p);
    const unknown = Object.keys(item).find((k) => !['price', 'price_data', 'quantity', 'adjustable_quantity'].includes(k));
    if (unknown) throw invalid(`Received unknown parameter: ${p}[${unknown}]`, `${p}[${unknown}]`, 'parameter_unknown');
    if (typeof item.price === 'string') throw noSuch('price', item.price, `${p}[price]`);
    const data = item.price_data;
    if (data === undefined) throw invalid('You must specify either `price` or `price_data` for each line item.', p);
    if (typeof data !== 'object' || Array.isArray(data)) throw invalid('Invalid hash', `${p}[price_data]`);
    const currency = typeof data.currency === 'string' ? data.currency.toLowerCase() : undefined;
    if (!currency) throw missing(`${p}[price_data][currency]`);
    if (!CURRENCIES.has(currency)) throw invalid(`Invalid currency: ${currency}.`, `${p}[price_data][currency]`);
    const unitAmount = integer(data.unit_amount, `${p}[price_data][unit_amount]`);
    if (unitAmount < 0) throw invalid('This value must be greater than or equal to 0.', `${p}[price_data][unit_amount]`);
    const product = data.product_data;
    const name = typeof product === 'object' && !Array.isArray(product) ? product.name : undefined;
    if (typeof data.product === 'string') throw noSuch('product', data.product, `${p}[price_data][product]`);
    if (typeof name !== 'string' || name === '') throw missing(`${p}[price_data][product_data][name]`);
    const recurring = data.recurring;
    const interval = typeof recurring === 'object' && !Array.isArray(recurring) && typeof recurring.interval === 'string' ? recurring.interval : undefined;
    if (recurring !== undefined && !['day', 'week', 'month', 'year'].includes(interval ?? '')) throw invalid('Invalid recurring interval', `${p}[price_data][recurring][interval]`);
    if (mode === 'payment' && interval) throw invalid('You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', p);
    if (mode === 'subscription' && !interval) throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', p);
    const quantity = integer(item.quantity, `${p}[quantity]`);
    if (quantity < 1) throw invalid('This value must be greater than or equal to 1.', `${p}[quantity]`);
    return {
      id: randomId('li_'),
      object: 'item' as const,
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      currency,
      description: name,
      price: { id: randomId('price_'), object: 'price' as const, currency, unit_amount: unitAmount, recurring: interval ? { interval } : null, product: randomId('prod_', 14), type: interval ? ('recurring' as const) : ('one_time' as const) },
      quantity,
    };
  });
}

const DAY_SECONDS = 86_400;

/** The end of a billing period that starts at `start` (unix seconds) for a price's interval. */
export function periodEnd(start: number, interval: string): number {
  const date = new Date(start * 1000);
  if (interval === 'day') return start + DAY_SECONDS;
  if (interval === 'week') return start + 7 * DAY_SECONDS;
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
}

export interface FakeSubscriptionInput {
  id: string;
  customer: string;
  item: FakeLineItem;
  metadata: Record<string, string>;
  latestInvoice: string;
  start: number;
}

/** A Subscription as the API returns it (API 2025+: the period lives on its items). */
export function subscriptionJson(input: FakeSubscriptionInput): Record<string, unknown> {
  const interval = input.item.price.recurring?.interval ?? 'month';
  return {
    id: input.id,
    object: 'subscription',
    billing_cycle_anchor: input.start,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    collection_method: 'charge_automatically',
    created: input.start,
    currency: input.item.currency,
    customer: input.customer,
    ended_at: null,
    items: {
      object: 'list',
      data: [
        {
          id: randomId('si_', 14),
          object: 'subscription_item',
          created: input.start,
          current_period_start: input.start,
          current_period_end: periodEnd(input.start, interval),
          metadata: {},
          price: input.item.price,
          quantity: input.item.quantity,
          subscription: input.id,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${input.id}`,
    },
    latest_invoice: input.latestInvoice,
    livemode: false,
    metadata: input.metadata,
    start_date: input.start,
    status: 'active',
  };
}

/** An Invoice of a subscription's period, as the API returns it (API 2025+: `parent.subscription_details`). */
export function invoiceJson(subscription: Record<string, unknown>, billingReason: 'subscription_create' | 'subscription_cycle', paid: boolean): Record<string, unknown> {
  const item = (subscription.items as { data: Array<Record<string, unknown>> }).data[0]!;
  const price = item.price as FakeLineItem['price'];
  const amount = price.unit_amount * Number(item.quantity ?? 1);
  const start = Number(item.current_period_start);
  const end = Number(item.current_period_end);
  const id = randomId('in_');
  return {
    id,
    object: 'invoice',
    amount_due: amount,
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    attempt_count: 1,
    billing_reason: billingReason,
    collection_method: 'charge_automatically',
    created: start,
    currency: price.currency,
    customer: subscription.customer,
    lines: {
      object: 'list',
      data: [
        {
          id: randomId('il_'),
          object: 'line_item',
          amount,
          currency: price.currency,
          description: `1 × subscription`,
          invoice: id,
          livemode: false,
          metadata: {},
          parent: { type: 'subscription_item_details', subscription_item_details: { subscription: subscription.id, subscription_item: item.id, proration: false, invoice_item: null, proration_details: null }, invoice_item_details: null },
          period: { start, end },
          quantity: item.quantity,
        },
      ],
      has_more: false,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
    // Stripe's quirk: a subscription invoice's own period is the one before its lines' period.
    period_end: start,
    period_start: billingReason === 'subscription_create' ? start : start - (end - start),
    status: paid ? 'paid' : 'open',
    status_transitions: { paid_at: paid ? start : null, finalized_at: start },
    subtotal: amount,
    total: amount,
  };
}
