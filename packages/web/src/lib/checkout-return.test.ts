import { describe, expect, it } from 'vitest';
import { checkoutReturnFrom, isCheckoutCredited, pollCheckout, RECENT_TOP_UP_MS, type PendingCheckout } from './checkout-return';

const started = '2026-11-20T12:00:00.000Z';
const startedMs = Date.parse(started);
const pending: PendingCheckout = { balanceCents: 1500, amountDollars: 25, startedAt: started };
const topUp = (at: string) => ({ kind: 'top_up', createdAt: at });

describe('checkoutReturnFrom', () => {
  it('reads success with its session id, cancelled, or nothing', () => {
    expect(checkoutReturnFrom(new URLSearchParams('checkout=success&session_id=cs_test_1'))).toEqual({ kind: 'success', sessionId: 'cs_test_1' });
    expect(checkoutReturnFrom(new URLSearchParams('checkout=success'))).toEqual({ kind: 'success', sessionId: null });
    expect(checkoutReturnFrom(new URLSearchParams('checkout=cancelled'))).toEqual({ kind: 'cancelled' });
    expect(checkoutReturnFrom(new URLSearchParams(''))).toBeNull();
    expect(checkoutReturnFrom(new URLSearchParams('checkout=maybe'))).toBeNull();
  });
});

describe('isCheckoutCredited', () => {
  const now = startedMs + 60_000;

  it('is credited once the balance rose above the one at checkout', () => {
    expect(isCheckoutCredited(pending, 1500, [], now)).toBe(false);
    expect(isCheckoutCredited(pending, 4050, [], now)).toBe(true);
  });

  it('is credited by a top-up since the checkout even when a run spent the balance meanwhile', () => {
    expect(isCheckoutCredited(pending, 1400, [topUp('2026-11-20T12:00:30.000Z')], now)).toBe(true);
    expect(isCheckoutCredited(pending, 1400, [topUp('2026-11-19T12:00:30.000Z')], now)).toBe(false);
    expect(isCheckoutCredited(pending, 1400, [{ kind: 'engine_usage', createdAt: '2026-11-20T12:00:30.000Z' }], now)).toBe(false);
  });

  it('without a stored checkout, counts only a recent top-up', () => {
    expect(isCheckoutCredited(null, 9999, [], now)).toBe(false);
    expect(isCheckoutCredited(null, 9999, [topUp(new Date(now - 60_000).toISOString())], now)).toBe(true);
    expect(isCheckoutCredited(null, 9999, [topUp(new Date(now - RECENT_TOP_UP_MS - 1).toISOString())], now)).toBe(false);
  });
});

describe('pollCheckout', () => {
  function fakeTime() {
    let clock = startedMs;
    const sleeps: number[] = [];
    return {
      now: () => clock,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        clock += ms;
      },
      sleeps,
    };
  }

  it('polls every 1.5 s until the webhook credit shows (webhook after the redirect)', async () => {
    const time = fakeTime();
    const balances = [1500, 1500, 1500, 4050];
    let reads = 0;
    const result = await pollCheckout({
      pending,
      readBalance: async () => balances[reads++] ?? 4050,
      readEntries: async () => [],
      signal: new AbortController().signal,
      now: time.now,
      sleep: time.sleep,
    });
    expect(result).toEqual({ status: 'credited', balanceCents: 4050 });
    expect(reads).toBe(4);
    expect(time.sleeps).toEqual([1500, 1500, 1500]);
  });

  it('answers at once when the webhook landed before the redirect', async () => {
    const time = fakeTime();
    const result = await pollCheckout({
      pending,
      readBalance: async () => 4050,
      readEntries: async () => [topUp(started)],
      signal: new AbortController().signal,
      now: time.now,
      sleep: time.sleep,
    });
    expect(result).toEqual({ status: 'credited', balanceCents: 4050 });
    expect(time.sleeps).toEqual([]);
  });

  it('retries failed reads and gives up as late after about 60 s', async () => {
    const time = fakeTime();
    let reads = 0;
    const result = await pollCheckout({
      pending,
      readBalance: async () => {
        reads += 1;
        if (reads === 1) throw new Error('network');
        return 1500;
      },
      readEntries: async () => [],
      signal: new AbortController().signal,
      now: time.now,
      sleep: time.sleep,
    });
    expect(result).toEqual({ status: 'late', balanceCents: 1500 });
    expect(time.now() - startedMs).toBeLessThanOrEqual(60_000);
    expect(reads).toBe(41); // at 0, 1.5, …, 60 s
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const time = fakeTime();
    const result = await pollCheckout({
      pending,
      readBalance: async () => {
        controller.abort();
        return 1500;
      },
      readEntries: async () => [],
      signal: controller.signal,
      now: time.now,
      sleep: time.sleep,
    });
    expect(result).toEqual({ status: 'late', balanceCents: 1500 });
    expect(time.sleeps).toEqual([1500]);
  });
});
