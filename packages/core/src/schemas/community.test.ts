import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  capsuleDetailReply,
  capsulesReply,
  listingReply,
  listingsQuery,
  publishCapsuleRequest,
  purchaseReply,
  referralCodeCheckReply,
  referralCodeLookup,
  shareCapsuleRequest,
  subscriptionStatusReply,
} from './community.js';

function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

const capsuleWire = {
  id: 'c1',
  slug: 'todo-app-ab12',
  shareSlug: 'ab12',
  title: 'Todo app',
  projectName: 'todo',
  description: 'A session',
  originalPrompt: 'todo app',
  enhancedPrompt: 'a todo app with tags',
  finalCode: 'export {}',
  viewCount: '12',
  shareCount: 3,
  createdAt: '2026-11-01T10:00:00.000Z',
  isPublic: 'true',
  metrics: {
    totalDuration: '65000',
    totalTokens: 1200,
    totalCost: '41.5',
    modelVotes: 'Engine A,Engine B',
    consensusScore: '0.82',
    outputLength: 5000,
  },
};

describe('listingsQuery', () => {
  it('fills the defaults of an empty query', () => {
    expect(listingsQuery.parse({})).toEqual({ limit: 24, offset: 0, sortBy: 'createdAt', sortOrder: 'desc' });
  });

  it('coerces query-string values and treats blanks as absent', () => {
    expect(
      listingsQuery.parse({
        limit: '9',
        offset: '18',
        search: '  react ',
        isCommercial: 'true',
        sortBy: 'priceCents',
        sortOrder: 'asc',
      }),
    ).toEqual({ limit: 9, offset: 18, search: 'react', isCommercial: 'true', sortBy: 'priceCents', sortOrder: 'asc' });
    expect(listingsQuery.parse({ search: '', isCommercial: '', limit: ['12', '50'] })).toEqual({
      limit: 12,
      offset: 0,
      sortBy: 'createdAt',
      sortOrder: 'desc',
    });
  });

  it('rejects bad values', () => {
    expect(messages(listingsQuery, { limit: 'abc' })).toEqual(['limit must be a number']);
    expect(messages(listingsQuery, { limit: '0' })).toEqual(['limit must be at least 1']);
    expect(messages(listingsQuery, { limit: '101' })).toEqual(['limit must be at most 100']);
    expect(messages(listingsQuery, { offset: '-1' })).toEqual(['offset must be zero or more']);
    expect(listingsQuery.safeParse({ isCommercial: 'yes' }).success).toBe(false);
    expect(listingsQuery.safeParse({ sortBy: 'title' }).success).toBe(false);
    expect(listingsQuery.safeParse({ sortOrder: 'up' }).success).toBe(false);
  });
});

describe('listings', () => {
  it('parses a listing', () => {
    const { listing } = listingReply.parse({
      listing: {
        id: 'l1',
        title: 'Todo',
        summary: 'A todo app',
        coverImage: null,
        visibility: 'commercial',
        priceCents: '1999',
        currency: 'usd',
        techStack: ['React', 'Koa', 'Postgres', 'Vite'],
        tags: [{ tagName: 'productivity' }],
        demoUrl: null,
        repoUrl: 'https://github.com/wolf/todo',
        createdAt: '2026-11-01',
      },
    });
    expect(listing.priceCents).toBe(1999);
    expect(listingReply.safeParse({ listing: { ...listing, visibility: 'private' } }).success).toBe(false);
  });

  it('parses both purchase replies', () => {
    expect(purchaseReply.parse({ checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_1' })).toEqual({
      checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_1',
    });
    expect(purchaseReply.parse({ error: 'Listing is free' })).toEqual({ error: 'Listing is free' });
    expect(purchaseReply.safeParse({}).success).toBe(false);
  });
});

describe('capsules', () => {
  it('parses the capsule detail with string booleans and numbers', () => {
    const reply = capsuleDetailReply.parse({
      capsule: capsuleWire,
      events: [
        { id: 'e1', eventType: 'prompt_received', timestamp: '2026-11-01T10:00:00Z', data: {} },
        { id: 'e2', eventType: 'model_enhanced', timestamp: '2026-11-01T10:00:01Z', data: { model: 'Engine A', iteration: 1 } },
        { id: 'e3', eventType: 'enhancement_selected', timestamp: 't', data: { reason: 'highest score', extra: 1 } },
        { id: 'e4', eventType: 'code_refined', timestamp: 't', data: { enhanced: true } },
        { id: 'e5', eventType: 'session_complete', timestamp: 't', data: {} },
      ],
      metrics: capsuleWire.metrics,
      shareCount: '3',
    });
    expect(reply.capsule.isPublic).toBe(true);
    expect(reply.capsule.viewCount).toBe(12);
    expect(reply.metrics).toEqual({
      totalDuration: 65000,
      totalTokens: 1200,
      totalCost: 41.5,
      modelVotes: 'Engine A,Engine B',
      consensusScore: 0.82,
      outputLength: 5000,
    });
    expect(reply.shareCount).toBe(3);
    expect(reply.events[2]?.data).toEqual({ reason: 'highest score', extra: 1 });
  });

  it('parses isPublic "false" and boolean false as false, and rejects other strings', () => {
    expect(capsulesReply.parse({ capsules: [{ ...capsuleWire, isPublic: 'false' }] }).capsules[0]?.isPublic).toBe(false);
    expect(capsulesReply.parse({ capsules: [{ ...capsuleWire, isPublic: false }] }).capsules[0]?.isPublic).toBe(false);
    expect(capsulesReply.safeParse({ capsules: [{ ...capsuleWire, isPublic: 'yes' }] }).success).toBe(false);
  });

  it('rejects an unknown event type and a consensus score above 1', () => {
    const detail = { capsule: capsuleWire, events: [], metrics: null, shareCount: 0 };
    expect(capsuleDetailReply.safeParse(detail).success).toBe(true);
    expect(
      capsuleDetailReply.safeParse({ ...detail, events: [{ id: 'e', eventType: 'model_voted', timestamp: 't', data: {} }] }).success,
    ).toBe(false);
    expect(
      capsuleDetailReply.safeParse({ ...detail, metrics: { ...capsuleWire.metrics, consensusScore: 1.2 } }).success,
    ).toBe(false);
  });

  it('validates share and publish requests', () => {
    expect(shareCapsuleRequest.parse({ shareMethod: 'linkedin', referralCode: 'WPAB12CD' })).toEqual({
      shareMethod: 'linkedin',
      referralCode: 'WPAB12CD',
    });
    expect(shareCapsuleRequest.parse({ shareMethod: 'copy' })).toEqual({ shareMethod: 'copy' });
    expect(messages(shareCapsuleRequest, { shareMethod: 'email' })).toEqual(['Share through twitter, linkedin or copy']);
    expect(publishCapsuleRequest.parse({ isPublic: false })).toEqual({ isPublic: false });
    expect(publishCapsuleRequest.safeParse({ isPublic: 'true' }).success).toBe(false);
  });

  it('reads the referral code from the subscription status', () => {
    expect(subscriptionStatusReply.parse({ referralCode: 'WPAB12CD', plan: 'free' }).referralCode).toBe('WPAB12CD');
    expect(subscriptionStatusReply.parse({ referralCode: null }).referralCode).toBeNull();
  });

  it('reads a referral code to look up: WP and 6 letters or digits, upper-cased; anything else is named as malformed', () => {
    expect(referralCodeLookup.parse({ code: ' wpab12cd ' })).toEqual({ code: 'WPAB12CD' });
    expect(messages(referralCodeLookup, { code: 'WP-AB12' })).toEqual(['The invitation code "WP-AB12" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.']);
    expect(messages(referralCodeLookup, { code: 'WPAB12' })).toEqual(['The invitation code "WPAB12" is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.']);
    expect(messages(referralCodeLookup, { code: 'x'.repeat(33) })).toEqual([`The invitation code "${'x'.repeat(24)}…" (33 characters) is malformed: a referral code is WP followed by 6 letters or digits, such as WP4K7Q2Z.`]);
    expect(referralCodeCheckReply.parse({ valid: false })).toEqual({ valid: false });
    expect(referralCodeCheckReply.safeParse({ valid: 'yes' }).success).toBe(false);
  });
});
