import { describe, expect, it } from 'vitest';
import {
  checkListingForm,
  coverFileProblem,
  dollarsToCents,
  EMPTY_LISTING_FORM,
  formFromDraft,
  formFromListing,
  purchaseFailureText,
  serverFieldProblem,
  splitList,
  type ListingFormValues,
} from './showcase-listing-form';

const filled: ListingFormValues = { ...EMPTY_LISTING_FORM, title: ' Snake ', summary: ' A game ' };

describe('listing form', () => {
  it('reads dollars as cents', () => {
    expect(dollarsToCents('19.99')).toBe(1999);
    expect(dollarsToCents('$5')).toBe(500);
    expect(dollarsToCents('5.5')).toBe(550);
    expect(dollarsToCents(' 1.05 ')).toBe(105);
    for (const bad of ['', 'abc', '1.999', '-3', '1,50']) expect(dollarsToCents(bad)).toBeUndefined();
  });

  it('splits comma-separated lists without blanks or repeats', () => {
    expect(splitList(' React, vite,, React ,Vite , Zod')).toEqual(['React', 'vite', 'Zod']);
    expect(splitList('')).toEqual([]);
  });

  it('builds the body of a free listing', () => {
    const result = checkListingForm({ ...filled, techStack: 'React, Vite', tags: 'game', demoUrl: ' https://demo.example ' });
    expect(result).toEqual({
      ok: true,
      body: { title: 'Snake', summary: 'A game', visibility: 'free', priceCents: 0, techStack: ['React', 'Vite'], tags: ['game'], demoUrl: 'https://demo.example', repoUrl: null },
    });
  });

  it('needs a price of at least $1 for a commercial listing', () => {
    expect(checkListingForm({ ...filled, visibility: 'commercial', price: '' })).toMatchObject({ ok: false, errors: { price: expect.any(String) } });
    expect(checkListingForm({ ...filled, visibility: 'commercial', price: '0.99' })).toMatchObject({
      ok: false,
      errors: { price: 'A commercial listing needs a price of at least $1' },
    });
    expect(checkListingForm({ ...filled, visibility: 'commercial', price: '12.50' })).toMatchObject({ ok: true, body: { priceCents: 1250 } });
  });

  it('names every field that is wrong', () => {
    const result = checkListingForm({ ...EMPTY_LISTING_FORM, demoUrl: 'ftp://x', repoUrl: 'github.com/x', tags: Array.from({ length: 11 }, (_, i) => `t${i}`).join(',') });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(['demoUrl', 'repoUrl', 'summary', 'tags', 'title']);
  });

  it('sends a cover only when one was chosen', () => {
    const result = checkListingForm({ ...filled, coverImage: 'data:image/png;base64,AAAA' });
    expect(result.ok && result.body.coverImage).toBe('data:image/png;base64,AAAA');
    const without = checkListingForm(filled);
    expect(without.ok && 'coverImage' in without.body).toBe(false);
  });

  it('refuses covers of other types or above 1 MB', () => {
    expect(coverFileProblem({ type: 'image/png', size: 1_000_000 })).toBeNull();
    expect(coverFileProblem({ type: 'image/png', size: 1_000_001 })).toBe('The cover image must be at most 1 MB.');
    expect(coverFileProblem({ type: 'image/svg+xml', size: 10 })).toBe('Choose a PNG, JPEG, WebP or GIF image.');
  });

  it('starts from the draft or from the listing', () => {
    expect(formFromDraft({ title: 'T', summary: 'S', techStack: ['React', 'Vite'], promptOriginal: null, promptEnhancedSnapshot: null, fileCount: 3 })).toMatchObject({
      title: 'T',
      summary: 'S',
      techStack: 'React, Vite',
      visibility: 'free',
    });
    const form = formFromListing({
      id: 'l1',
      title: 'T',
      summary: 'S',
      visibility: 'commercial',
      priceCents: 1999,
      currency: 'usd',
      techStack: ['Koa'],
      tags: [{ tagName: 'api' }, { tagName: 'server' }],
      demoUrl: null,
      repoUrl: 'https://github.com/x/y',
      createdAt: '2026-11-23T00:00:00Z',
    });
    expect(form).toMatchObject({ price: '19.99', tags: 'api, server', demoUrl: '', repoUrl: 'https://github.com/x/y', coverImage: null });
  });

  it("words a failed purchase with the server's error, then the fallbacks", () => {
    expect(purchaseFailureText(new Error('400: {"error":"You can\'t buy your own listing.","code":"BAD_REQUEST"}'))).toBe("You can't buy your own listing.");
    expect(purchaseFailureText(new Error('500: <html></html>'))).toBe('Purchase failed');
    expect(purchaseFailureText(new TypeError('Failed to fetch'))).toBe('Failed to start checkout process');
  });

  it("reads the server's sentence about one field from a refusal", () => {
    const refusal = (body: string) => new Error(`400: ${body}`);
    const message = 'The cover image (coverImage) is not a readable PNG: its chunks are damaged.';
    expect(serverFieldProblem(refusal(JSON.stringify({ error: message, issues: [{ path: 'coverImage', message }] })), 'coverImage')).toBe(message);
    expect(serverFieldProblem(refusal(JSON.stringify({ error: 'Give the listing a title', issues: [{ path: 'title', message: 'Give the listing a title' }] })), 'coverImage')).toBeUndefined();
    expect(serverFieldProblem(refusal(JSON.stringify({ error: 'Listings are paused.' })), 'coverImage')).toBeUndefined();
    expect(serverFieldProblem(refusal('<html>'), 'coverImage')).toBeUndefined();
    expect(serverFieldProblem(new Error('Failed to fetch'), 'coverImage')).toBeUndefined();
  });
});

describe('listing text limits', () => {
  it('names the limit and the length of a title or summary over it, and nothing for one that fits', async () => {
    const { lengthProblem } = await import('./showcase-listing-form');
    expect(lengthProblem('title', 'T'.repeat(120))).toBeUndefined();
    expect(lengthProblem('title', ` ${'T'.repeat(120)} `)).toBeUndefined();
    expect(lengthProblem('title', 'T'.repeat(10_000))).toBe('The title must be at most 120 characters; this one has 10,000.');
    expect(lengthProblem('summary', 'S'.repeat(2001))).toBe('The summary must be at most 2,000 characters; this one has 2,001.');
  });
});
