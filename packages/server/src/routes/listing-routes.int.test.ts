import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutReply, listingReply, listingsReply, listingDraftReply, versionsReply, type Listing } from '@wolfpack/core';
import { ProjectService } from '../services/projects/project-service.js';
import { COVER_PNG as PNG, REAL_COVERS } from '../testing/cover-images.js';
import type { FakeStripe } from '../testing/fake-stripe.js';
import { startPaidTestServer, type PaidTestServer } from '../testing/paid-test-server.js';
import { TestClient } from '../testing/http-client.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import type { Sql } from '../db/plain-sql.js';

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const FILES = {
  'package.json': JSON.stringify({ dependencies: { react: '^19', express: '^5' }, devDependencies: { typescript: '^5' } }),
  'src/app.tsx': 'export const App = () => null;\n',
  'index.html': '<!doctype html><div id="root"></div>\n',
};

const sql = <T = Array<Record<string, unknown>>>(server: TestServer, text: string, params: unknown[] = []) => (server.db.orm.em.fork() as Sql).execute<T>(text, params);

interface Member {
  client: TestClient;
  userId: string;
  username: string;
}

let names = 0;
async function member(server: TestServer, prefix = 'user'): Promise<Member> {
  const client = new TestClient(server.url);
  const username = `${prefix}${(names += 1)}`;
  expect((await client.post('/api/auth/register', { username, password: 'correct-horse' })).status).toBe(201);
  const [row] = await sql<Array<{ id: string }>>(server, 'select id from users where username = ?', [username]);
  return { client, userId: row!.id, username };
}

/** A project of the user's with these files, as a completed run leaves it. */
const project = (server: TestServer, userId: string, idea = 'Todo app\nKeeps a list of things to do.', files: Record<string, string> = FILES) =>
  new ProjectService(server.db.orm).saveRunResult({ userId, conversationId: randomUUID(), idea, projectId: null, files, processingMs: 1, costMillicents: 0 });

async function createListing(server: TestServer, who: Member, body: Record<string, unknown> = {}): Promise<Listing> {
  const projectId = (body.projectId as string | undefined) ?? (await project(server, who.userId));
  const res = await who.client.post('/api/listings', { projectId, title: 'Todo app', summary: 'Keeps a list.', visibility: 'free', ...body });
  expect(res.status, res.text).toBe(201);
  return listingReply.parse(res.json).listing;
}

describe.each(testDatabases())('Showcase listings on %s', (kind) => {
  let paid: PaidTestServer;
  let fake: FakeStripe;
  let server: TestServer;
  beforeAll(async () => {
    paid = await startPaidTestServer(kind);
    ({ fake, server } = paid);
  });
  afterAll(() => paid?.dispose());
  const deliver = (event: object) => paid.deliver(event);

  it('lists an own project: snapshot, detected stack, prompts from its history, seller name, generated cover', async () => {
    const seller = await member(server, 'maker');
    const projectId = await project(server, seller.userId);
    await sql(server, `insert into enhancements (id, user_id, source_prompt, final_prompt, cycles_run, project_id, conversation_id, created_at) values (?, ?, ?, ?, 1, ?, null, ?)`, [
      randomUUID(), seller.userId, 'todo app', 'Build a todo app with React and an Express API', projectId, new Date(),
    ]);
    const draft = listingDraftReply.parse((await seller.client.get(`/api/listings/draft?projectId=${projectId}`)).json).draft;
    expect(draft).toEqual({ title: 'Todo app', summary: 'Keeps a list of things to do.', techStack: ['React', 'Express', 'TypeScript', 'HTML'], promptOriginal: 'todo app', promptEnhancedSnapshot: 'Build a todo app with React and an Express API', fileCount: 3 });
    const listing = await createListing(server, seller, { projectId, tags: ['Productivity', 'productivity', 'AI'], demoUrl: 'https://demo.example', repoUrl: '' });
    expect(listing).toMatchObject({
      title: 'Todo app', summary: 'Keeps a list.', visibility: 'free', priceCents: 0, currency: 'usd', fileCount: 3, sellerName: seller.username,
      techStack: ['React', 'Express', 'TypeScript', 'HTML'], tags: [{ tagName: 'Productivity' }, { tagName: 'AI' }], demoUrl: 'https://demo.example', repoUrl: null,
      promptOriginal: 'todo app', promptEnhancedSnapshot: 'Build a todo app with React and an Express API', isOwner: true, purchasedProjectId: null,
      coverImage: `/api/listings/${listing.id}/cover?v=1`,
    });
    expect(listing.sellerName).not.toContain('@');
    // Later runs change the project, not the listing's snapshot.
    await new ProjectService(server.db.orm).saveRunResult({ userId: seller.userId, conversationId: randomUUID(), idea: 'Todo app', projectId, files: { 'only.txt': 'x' }, processingMs: 1, costMillicents: 0 });
    const files = await sql<Array<{ path: string }>>(server, 'select path from listing_files where listing_id = ? order by path', [listing.id]);
    expect(files.map((f) => f.path)).toEqual(['index.html', 'package.json', 'src/app.tsx']);
    const anonymous = await new TestClient(server.url).get(`/api/listings/${listing.id}`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.json.listing).not.toHaveProperty('isOwner');
    expect(anonymous.json.listing).toMatchObject({ id: listing.id, fileCount: 3 });
    const cover = await fetch(`${server.url}${listing.coverImage}`);
    expect(cover.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(cover.headers.get('x-content-type-options')).toBe('nosniff');
    expect(cover.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await cover.text()).toContain('>Todo app</text>');
    // Given stack and tags are kept as given.
    const given = await createListing(server, seller, { techStack: ['Deno', 'Deno', 'Fresh'] });
    expect(given.techStack).toEqual(['Deno', 'Fresh']);
  });

  it('refuses other users\' projects (404), empty projects, a commercial listing under $1 and anonymous callers', async () => {
    const alice = await member(server);
    const mallory = await member(server);
    const alicesProject = await project(server, alice.userId);
    const stolen = await mallory.client.post('/api/listings', { projectId: alicesProject, title: 'Mine', summary: 'Not really', visibility: 'free' });
    expect(stolen.status).toBe(404);
    expect(stolen.json.error).toBe('Project not found');
    expect((await mallory.client.get(`/api/listings/draft?projectId=${alicesProject}`)).status).toBe(404);
    expect((await mallory.client.post('/api/listings', { projectId: 'not-a-uuid', title: 'x', summary: 'y', visibility: 'free' })).status).toBe(404);
    const empty = await project(server, alice.userId, 'Nothing yet', {});
    const none = await alice.client.post('/api/listings', { projectId: empty, title: 'x', summary: 'y', visibility: 'free' });
    expect(none.status).toBe(400);
    expect(none.json.error).toMatch(/no files/);
    for (const priceCents of [undefined, 0, 99]) {
      const cheap = await alice.client.post('/api/listings', { projectId: alicesProject, title: 'x', summary: 'y', visibility: 'commercial', priceCents });
      expect(cheap.status).toBe(400);
      expect(cheap.json.error).toBe('A commercial listing needs a price of at least $1 (priceCents ≥ 100)');
    }
    expect((await alice.client.post('/api/listings', { projectId: alicesProject, title: ' ', summary: 'y', visibility: 'free' })).json.error).toBe('Give the listing a title');
    expect((await alice.client.post('/api/listings', { projectId: alicesProject, title: 'x', summary: 'y', visibility: 'paid' })).status).toBe(400);
    // Too long is refused whole, naming the limit and the length (nothing is cut to fit): 120 passes, 121 does not.
    const longTitle = await alice.client.post('/api/listings', { projectId: alicesProject, title: 'T'.repeat(10_000), summary: 'y', visibility: 'free' });
    expect(longTitle.status).toBe(400);
    expect(longTitle.json.error).toBe('The title must be at most 120 characters; this one has 10,000.');
    expect((await alice.client.post('/api/listings', { projectId: alicesProject, title: 'T'.repeat(121), summary: 'y', visibility: 'free' })).json.error).toBe('The title must be at most 120 characters; this one has 121.');
    expect((await alice.client.post('/api/listings', { projectId: alicesProject, title: 'x', summary: 'S'.repeat(2001), visibility: 'free' })).json.error).toBe('The summary must be at most 2,000 characters; this one has 2,001.');
    const longest = await alice.client.post('/api/listings', { projectId: alicesProject, title: ` ${'T'.repeat(120)} `, summary: 'y', visibility: 'free' });
    expect(longest.status).toBe(201);
    expect((longest.json.listing as { title: string }).title).toBe('T'.repeat(120));
    expect((await new TestClient(server.url).post('/api/listings', { projectId: alicesProject, title: 'x', summary: 'y', visibility: 'free' })).status).toBe(401);
    expect((await new TestClient(server.url).get(`/api/listings/draft?projectId=${alicesProject}`)).status).toBe(401);
    expect((await alice.client.get('/api/listings/draft')).json.error).toMatch(/projectId/);
  });

  it('validates cover uploads by their bytes and serves them with safe headers', async () => {
    const seller = await member(server);
    const listing = await createListing(server, seller, { coverImage: dataUrl('image/png', PNG) });
    const res = await fetch(`${server.url}${listing.coverImage}`);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const projectId = await project(server, seller.userId);
    const base = { projectId, title: 'x', summary: 'y', visibility: 'free' };
    for (const coverImage of [dataUrl('image/svg+xml', SVG), dataUrl('image/png', SVG), dataUrl('text/html', Buffer.from('<p>hi</p>')), 'https://example.com/a.png', 'data:image/png,notbase64']) {
      const bad = await seller.client.post('/api/listings', { ...base, coverImage });
      expect(bad.status, coverImage.slice(0, 30)).toBe(400);
      expect(bad.json.error).toBe('The cover image must be a PNG, JPEG, WebP or GIF');
    }
    const big = await seller.client.post('/api/listings', { ...base, coverImage: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(1_000_001)])) });
    expect(big.status).toBe(400);
    expect(big.json.error).toBe('The cover image must be at most 1 MB');
    // Back to the generated cover, with a new cache buster.
    const reset = await seller.client.request('PUT', `/api/listings/${listing.id}`, { coverImage: null });
    expect(reset.status).toBe(200);
    const after = listingReply.parse(reset.json).listing;
    expect(after.coverImage).toBe(`/api/listings/${listing.id}/cover?v=2`);
    expect((await fetch(`${server.url}${after.coverImage}`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('decodes covers: a real PNG, JPEG, WebP or GIF is kept, one that only starts like an image is refused, naming the field', async () => {
    const seller = await member(server);
    const projectId = await project(server, seller.userId);
    const base = { projectId, title: 'x', summary: 'y', visibility: 'free' };
    for (const cover of REAL_COVERS) {
      const listing = await createListing(server, seller, { ...base, coverImage: dataUrl(cover.type, cover.bytes) });
      const res = await fetch(`${server.url}${listing.coverImage}`);
      expect(res.headers.get('content-type'), cover.name).toBe(cover.type);
      expect(Buffer.from(await res.arrayBuffer()).equals(cover.bytes), cover.name).toBe(true);
    }
    // The report: the PNG signature and 1,000 zero bytes was accepted and showed a broken image.
    const zeros = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(1000)]);
    const cutShort = REAL_COVERS.map((cover) => ({ ...cover, bytes: cover.bytes.subarray(0, cover.bytes.length - 3) }));
    for (const { type, bytes } of [{ type: 'image/png', bytes: zeros }, ...cutShort]) {
      const bad = await seller.client.post('/api/listings', { ...base, coverImage: dataUrl(type, bytes) });
      expect(bad.status, type).toBe(400);
      expect(bad.json.error).toMatch(/^The cover image \(coverImage\) is not a readable (PNG|JPEG|WebP|GIF): .+\. Send a PNG, JPEG, WebP or GIF image that opens in an image viewer, at most 1 MB and 8192 pixels on a side\.$/);
      expect(bad.json.issues).toEqual([{ path: 'coverImage', message: bad.json.error }]);
    }
    const zeroReply = await seller.client.post('/api/listings', { ...base, coverImage: dataUrl('image/png', zeros) });
    expect(zeroReply.json.error).toBe(
      'The cover image (coverImage) is not a readable PNG: its chunks are damaged. Send a PNG, JPEG, WebP or GIF image that opens in an image viewer, at most 1 MB and 8192 pixels on a side.',
    );
    // An edit is checked the same way, and leaves the cover it had.
    const listing = await createListing(server, seller, { ...base, coverImage: dataUrl('image/png', PNG) });
    const edit = await seller.client.request('PUT', `/api/listings/${listing.id}`, { coverImage: dataUrl('image/png', zeros) });
    expect(edit.status).toBe(400);
    expect(edit.json.issues).toEqual([{ path: 'coverImage', message: edit.json.error }]);
    expect(Buffer.from(await (await fetch(`${server.url}${listing.coverImage}`)).arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('edits and deletes for the owner only; a deleted listing is gone everywhere', async () => {
    const owner = await member(server);
    const other = await member(server);
    const listing = await createListing(server, owner, { title: 'Edit me', tags: ['zeditme'] });
    const put = (who: Member, body: object) => who.client.request('PUT', `/api/listings/${listing.id}`, body);
    expect((await put(other, { title: 'Hijacked' })).status).toBe(404);
    expect((await other.client.request('DELETE', `/api/listings/${listing.id}`)).status).toBe(404);
    expect((await put(owner, { visibility: 'commercial' })).json.error).toBe('A commercial listing needs a price of at least $1 (priceCents ≥ 100)');
    const commercial = await put(owner, { visibility: 'commercial', priceCents: 1500, title: 'Edited' });
    expect(commercial.json.listing).toMatchObject({ visibility: 'commercial', priceCents: 1500, title: 'Edited', coverImage: `/api/listings/${listing.id}/cover?v=2` });
    expect((await put(owner, { priceCents: 50 })).status).toBe(400);
    expect((await put(owner, { priceCents: 2500 })).json.listing).toMatchObject({ priceCents: 2500 });
    expect((await put(owner, { visibility: 'free' })).json.listing).toMatchObject({ visibility: 'free', priceCents: 0 });
    expect((await put(owner, { demoUrl: 'javascript:alert(1)' })).status).toBe(400);
    expect((await new TestClient(server.url).request('PUT', `/api/listings/${listing.id}`, { title: 'x' })).status).toBe(401);
    expect((await owner.client.request('DELETE', `/api/listings/${listing.id}`)).status).toBe(204);
    const gone = await new TestClient(server.url).get(`/api/listings/${listing.id}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error).toBe('This listing could not be found or has been removed.');
    expect((await fetch(`${server.url}/api/listings/${listing.id}/cover`)).status).toBe(404);
    expect(listingsReply.parse((await owner.client.get('/api/listings?search=zeditme')).json).listings).toEqual([]);
    expect((await owner.client.request('DELETE', `/api/listings/${listing.id}`)).status).toBe(404);
    expect((await put(owner, { title: 'Back' })).status).toBe(404);
  });

  it('answers 404, never 500, for ids that are not UUIDs', async () => {
    const who = await member(server);
    for (const id of ['nope', '1', "x'; drop table listings; --", '00000000-0000-0000-0000-00000000000g', randomUUID()]) {
      const path = `/api/listings/${encodeURIComponent(id)}`;
      expect((await who.client.get(path)).status).toBe(404);
      expect((await who.client.get(`${path}/cover`)).status).toBe(404);
      expect((await who.client.request('PUT', path, { title: 'x' })).status).toBe(404);
      expect((await who.client.request('DELETE', path)).status).toBe(404);
      expect((await who.client.post(`${path}/purchase`)).status).toBe(404);
    }
  });

  it("gives a copy the idea once when the listing's summary defaulted to a one-line idea", async () => {
    const seller = await member(server);
    const buyer = await member(server);
    const idea = 'a pomodoro timer with a 25/5 cycle and a bell at the end';
    const projectId = await project(server, seller.userId, idea);
    const draft = listingDraftReply.parse((await seller.client.get(`/api/listings/draft?projectId=${projectId}`)).json).draft;
    expect(draft).toMatchObject({ title: idea, summary: idea });
    const listing = await createListing(server, seller, { projectId, title: draft.title, summary: draft.summary });
    const copied = await buyer.client.post(`/api/listings/${listing.id}/purchase`);
    expect(copied.status).toBe(200);
    const detail = await buyer.client.get(`/api/projects/${copied.json.projectId as string}`);
    expect((detail.json.project as { idea: string }).idea).toBe(idea);
    // A summary that says more keeps the title as the copy's first line, once.
    const other = await createListing(server, seller, { title: 'Todo app', summary: 'Keeps a list of things to do.' });
    const second = await buyer.client.post(`/api/listings/${other.id}/purchase`);
    expect(((await buyer.client.get(`/api/projects/${second.json.projectId as string}`)).json.project as { idea: string }).idea).toBe('Todo app\n\nKeeps a list of things to do.');
  });

  it('copies a free listing once per buyer, even when asked five times at once', async () => {
    const seller = await member(server);
    const buyer = await member(server);
    const listing = await createListing(server, seller);
    expect((await new TestClient(server.url).post(`/api/listings/${listing.id}/purchase`)).status).toBe(401);
    const own = await seller.client.post(`/api/listings/${listing.id}/purchase`);
    expect(own.status).toBe(400);
    expect(own.json.error).toBe("You can't buy your own listing.");
    const replies = await Promise.all(Array.from({ length: 5 }, () => buyer.client.post(`/api/listings/${listing.id}/purchase`)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const ids = new Set(replies.map((r) => r.json.projectId));
    expect(ids.size).toBe(1);
    const projectId = [...ids][0] as string;
    expect((await buyer.client.post(`/api/listings/${listing.id}/purchase`)).json).toEqual({ projectId });
    const detail = await buyer.client.get(`/api/projects/${projectId}`);
    expect(detail.status).toBe(200);
    expect((detail.json.project as { fsIndex: object; idea: string }).fsIndex).toEqual(FILES);
    expect((detail.json.project as { idea: string }).idea.split('\n')[0]).toBe('Todo app');
    // The copy's history starts with the listing's files as version 1.
    const history = versionsReply.parse((await buyer.client.get(`/api/projects/${projectId}/versions`)).json);
    expect(history.versions.map((v) => [v.number, v.label, v.fileCount, v.added, v.current])).toEqual([[1, `Imported from the Community Showcase: ${listing.title}`, Object.keys(FILES).length, Object.keys(FILES).length, true]]);
    const projects = await sql<Array<{ n: string | number }>>(server, 'select count(*) as n from projects where user_id = ?', [buyer.userId]);
    expect(Number(projects[0]!.n)).toBe(1);
    const purchases = await sql<Array<{ n: string | number }>>(server, 'select count(*) as n from listing_purchases where listing_id = ?', [listing.id]);
    expect(Number(purchases[0]!.n)).toBe(1);
    expect((await buyer.client.get(`/api/listings/${listing.id}`)).json.listing).toMatchObject({ isOwner: false, purchasedProjectId: projectId });
    // Another buyer gets a copy of their own; the seller's project is untouched.
    const second = await member(server);
    const theirs = (await second.client.post(`/api/listings/${listing.id}/purchase`)).json.projectId;
    expect(theirs).not.toBe(projectId);
    expect((await buyer.client.get(`/api/projects/${theirs}`)).status).toBe(404);
    // A copy the buyer deleted is made again.
    expect((await buyer.client.request('DELETE', `/api/projects/${projectId}`)).status).toBe(200);
    const again = (await buyer.client.post(`/api/listings/${listing.id}/purchase`)).json.projectId;
    expect(again).not.toBe(projectId);
    expect((await buyer.client.get(`/api/projects/${again}`)).status).toBe(200);
  });

  it('sells a commercial listing through Checkout; a duplicated webhook copies once and pays the seller 80 % once', async () => {
    const seller = await member(server);
    const buyer = await member(server);
    const listing = await createListing(server, seller, { visibility: 'commercial', priceCents: 999, title: 'Pro kit' });
    const sellerBefore = Number((await seller.client.get('/api/billing/balance')).json.balanceCents);
    const res = await buyer.client.post(`/api/listings/${listing.id}/purchase`);
    expect(res.status, res.text).toBe(200);
    const session = fake.sessionByUrl(checkoutReply.parse(res.json).checkoutUrl)!;
    expect(session).toMatchObject({
      amount_total: 999,
      metadata: { userId: buyer.userId, purpose: 'listing', referenceId: listing.id },
      success_url: `${server.url}/showcase/${listing.id}?checkout=success`,
      cancel_url: `${server.url}/showcase/${listing.id}?checkout=cancelled`,
    });
    const rows = await sql<Array<{ purpose: string; amount_cents: number; reference_id: string }>>(server, 'select purpose, amount_cents, reference_id from stripe_checkouts where id = ?', [session.id]);
    expect(rows[0]).toMatchObject({ purpose: 'listing', amount_cents: 999, reference_id: listing.id });
    expect((await buyer.client.get(`/api/listings/${listing.id}`)).json.listing).toMatchObject({ purchasedProjectId: null });

    const event = fake.completeSession(session.id);
    const replies = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await deliver(event)).status).toBe(200);
    const purchases = await sql<Array<{ project_id: string; seller_cents: number; amount_cents: number; proceeds_posted_at: Date | null }>>(server, 'select * from listing_purchases where listing_id = ?', [listing.id]);
    expect(purchases).toHaveLength(1);
    expect(purchases[0]).toMatchObject({ amount_cents: 999, seller_cents: 799, proceeds_posted_at: expect.anything() });
    const copy = await buyer.client.get(`/api/projects/${purchases[0]!.project_id}`);
    expect((copy.json.project as { fsIndex: object }).fsIndex).toEqual(FILES);
    const sales = await sql<Array<{ amount_cents: string | number; reference: string; kind: string }>>(server, "select amount_cents, reference, kind from ledger_entries where user_id = ? and kind = 'listing_sale'", [seller.userId]);
    expect(sales.map((s) => [Number(s.amount_cents), s.reference])).toEqual([[799, `listing-sale:${session.id}`]]);
    expect(Number((await seller.client.get('/api/billing/balance')).json.balanceCents)).toBe(sellerBefore + 799);
    expect((await buyer.client.get(`/api/listings/${listing.id}`)).json.listing).toMatchObject({ purchasedProjectId: purchases[0]!.project_id });
    const again = await buyer.client.post(`/api/listings/${listing.id}/purchase`);
    expect(again.status).toBe(409);
    expect(again.json.error).toBe('You already bought this listing: your copy is in Projects.');
    expect((await seller.client.post(`/api/listings/${listing.id}/purchase`)).status).toBe(400);

    // A crash after the buyer's transaction, before the seller's: as if the proceeds never posted.
    await sql(server, "delete from ledger_entries where reference = ?", [`listing-sale:${session.id}`]);
    await sql(server, 'update wallets set balance_cents = balance_cents - 799 where user_id = ?', [seller.userId]);
    await sql(server, 'update listing_purchases set proceeds_posted_at = null where checkout_id = ?', [session.id]);
    // Stripe redelivers (the crash meant no 200): the sale is completed, once, and no second copy.
    expect((await Promise.all([deliver(event), deliver(event)])).map((r) => r.status)).toEqual([200, 200]);
    expect(Number((await seller.client.get('/api/billing/balance')).json.balanceCents)).toBe(sellerBefore + 799);
    const healed = await sql(server, "select id from ledger_entries where user_id = ? and kind = 'listing_sale'", [seller.userId]);
    expect(healed).toHaveLength(1);
    expect(await sql(server, 'select id from projects where user_id = ?', [buyer.userId])).toHaveLength(1);
  });

  it('shows a commercial listing\'s prompts only to its seller and buyers; a free listing\'s to anyone', async () => {
    const seller = await member(server);
    const buyer = await member(server);
    const other = await member(server);
    const projectId = await project(server, seller.userId);
    await sql(server, `insert into enhancements (id, user_id, source_prompt, final_prompt, cycles_run, project_id, conversation_id, created_at) values (?, ?, ?, ?, 1, ?, null, ?)`, [
      randomUUID(), seller.userId, 'secret idea', 'The secret enhanced prompt', projectId, new Date(),
    ]);
    const listing = await createListing(server, seller, { projectId, visibility: 'commercial', priceCents: 700, title: 'Paid prompts' });
    const prompts = { promptOriginal: 'secret idea', promptEnhancedSnapshot: 'The secret enhanced prompt' };
    const hidden = { promptOriginal: null, promptEnhancedSnapshot: null, promptsWithPurchase: true };
    expect(listing).toMatchObject(prompts);
    const anonymous = new TestClient(server.url);
    const seen = async (client: TestClient, id = listing.id) => listingReply.parse((await client.get(`/api/listings/${id}`)).json).listing;
    const listed = async (client: TestClient) => listingsReply.parse((await client.get('/api/listings?search=Paid%20prompts')).json).listings.find((l) => l.id === listing.id);
    for (const client of [anonymous, other.client, buyer.client]) {
      expect(await seen(client)).toMatchObject(hidden);
      expect(await listed(client)).toMatchObject(hidden);
    }
    expect(JSON.stringify((await anonymous.get('/api/listings?limit=100')).json)).not.toContain('secret');
    expect(await seen(seller.client)).toMatchObject(prompts);
    expect(await seen(seller.client)).not.toHaveProperty('promptsWithPurchase');

    const session = fake.sessionByUrl(checkoutReply.parse((await buyer.client.post(`/api/listings/${listing.id}/purchase`)).json).checkoutUrl)!;
    expect((await deliver(fake.completeSession(session.id))).status).toBe(200);
    expect(await seen(buyer.client)).toMatchObject(prompts);
    expect(await listed(buyer.client)).toMatchObject(prompts);
    // The purchase, not the copy, is what entitles: a deleted copy keeps the prompts readable.
    const [bought] = await sql<Array<{ project_id: string }>>(server, 'select project_id from listing_purchases where listing_id = ?', [listing.id]);
    expect((await buyer.client.request('DELETE', `/api/projects/${bought!.project_id}`)).status).toBe(200);
    expect(await seen(buyer.client)).toMatchObject(prompts);
    expect(await seen(other.client)).toMatchObject(hidden);

    const free = await createListing(server, seller, { projectId, title: 'Free prompts' });
    expect(await seen(anonymous, free.id)).toMatchObject(prompts);
    expect(await seen(anonymous, free.id)).not.toHaveProperty('promptsWithPurchase');
  });

  it('a second paid checkout for a listing already bought becomes credits, not a second copy or sale', async () => {
    const seller = await member(server);
    const buyer = await member(server);
    const listing = await createListing(server, seller, { visibility: 'commercial', priceCents: 500 });
    const first = fake.sessionByUrl(checkoutReply.parse((await buyer.client.post(`/api/listings/${listing.id}/purchase`)).json).checkoutUrl)!;
    const second = fake.sessionByUrl(checkoutReply.parse((await buyer.client.post(`/api/listings/${listing.id}/purchase`)).json).checkoutUrl)!;
    expect(second.id).not.toBe(first.id);
    const buyerBefore = Number((await buyer.client.get('/api/billing/balance')).json.balanceCents);
    expect((await deliver(fake.completeSession(first.id))).status).toBe(200);
    expect((await deliver(fake.completeSession(second.id))).status).toBe(200);
    expect(Number((await buyer.client.get('/api/billing/balance')).json.balanceCents)).toBe(buyerBefore + 500);
    const sales = await sql(server, "select id from ledger_entries where user_id = ? and kind = 'listing_sale'", [seller.userId]);
    expect(sales).toHaveLength(1);
    const copies = await sql(server, 'select id from projects where user_id = ?', [buyer.userId]);
    expect(copies).toHaveLength(1);
  });

  it('answers 503 for a commercial purchase when payments are not configured', async () => {
    const bare = await startTestServer(kind);
    try {
      const seller = await member(bare);
      const buyer = await member(bare);
      const listing = await createListing(bare, seller, { visibility: 'commercial', priceCents: 100 });
      const res = await buyer.client.post(`/api/listings/${listing.id}/purchase`);
      expect(res.status).toBe(503);
    } finally {
      await bare.dispose();
    }
  });
});
