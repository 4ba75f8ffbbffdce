import { apiTokensReply, newApiTokenReply, type ApiTokenSummary } from '@wolfpack/core';
import type { ApiClient } from '../api.js';
import { explainLoggedOut, loggedInApi, type CommandContext } from '../context.js';
import { formatDate, formatTable } from '../format.js';
import { pickById, shortId } from '../resources.js';

export interface TokensCreateOptions {
  /** Days until it stops working; never or left out: no expiry. */
  expires?: number | 'never' | undefined;
}

const TOKEN_NOT_FOUND = 'There is no such API token. `wolfpack tokens list` shows yours with their ids.';

/**
 * `wolfpack tokens create NAME`: a named personal access token for scripts and CI (POST
 * /api/tokens). stdout carries the token alone, this once (TOKEN=$(wolfpack tokens create ci));
 * what it is and how long it lives go to stderr. --json: {id, name, token, createdAt, expiresAt}.
 */
export async function tokensCreate(name: string, options: TokensCreateOptions, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const reply = await api
    .post('/api/tokens', { body: { name, expiresInDays: typeof options.expires === 'number' ? options.expires : null }, reply: newApiTokenReply })
    .catch((error: unknown) => {
      throw explainLoggedOut(error, api.server);
    });
  const { apiToken, token } = reply;
  if (context.output.json) return context.output.result('', { ...withoutCurrent(apiToken), token });
  const expiry = apiToken.expiresAt ? `expires ${formatDate(apiToken.expiresAt)}` : 'never expires';
  context.io.stderr.write(
    `Created API token "${apiToken.name}" (${shortId(apiToken.id)}, ${expiry}). It is shown once: keep it in your CI's secrets as WOLFPACK_TOKEN.\n`,
  );
  context.io.stdout.write(`${token}\n`);
}

/** `wolfpack tokens list`: name, id, created, last used and expiry of each token that is not revoked. */
export async function tokensList(_options: object, context: CommandContext): Promise<void> {
  const tokens = await listTokens(await loggedInApi(context));
  if (context.output.json) return context.output.result('', { tokens });
  if (tokens.length === 0) {
    context.io.stdout.write('No API tokens. Create one with `wolfpack tokens create NAME`.\n');
    return;
  }
  const now = Date.now();
  const rows = tokens.map((token) => [
    token.current ? `${token.name} (this one)` : token.name,
    shortId(token.id),
    formatDate(token.createdAt),
    token.lastUsedAt ? formatDate(token.lastUsedAt) : 'never',
    expiryText(token.expiresAt, now),
  ]);
  const [header, ...lines] = formatTable([{ header: 'NAME' }, { header: 'ID' }, { header: 'CREATED' }, { header: 'LAST USED' }, { header: 'EXPIRES' }], rows);
  context.io.stdout.write(`${[context.output.style('bold', header!), ...lines].join('\n')}\n`);
}

/** `wolfpack tokens revoke ID`: the token stops working at once, on every server process. */
export async function tokensRevoke(id: string, _options: object, context: CommandContext): Promise<void> {
  const api = await loggedInApi(context);
  const tokens = await listTokens(api);
  const token = pickById(id.trim().toLowerCase(), tokens, 'API token', TOKEN_NOT_FOUND);
  await api.delete(`/api/tokens/${encodeURIComponent(token.id)}`).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
  context.output.result(`Revoked API token "${token.name}" (${shortId(token.id)}).`, { id: token.id, name: token.name, revoked: true });
}

async function listTokens(api: ApiClient): Promise<ApiTokenSummary[]> {
  const reply = await api.get('/api/tokens', { reply: apiTokensReply }).catch((error: unknown) => {
    throw explainLoggedOut(error, api.server);
  });
  return reply.tokens;
}

function expiryText(expiresAt: string | null, now: number): string {
  if (expiresAt === null) return 'never';
  return Date.parse(expiresAt) <= now ? `expired ${formatDate(expiresAt)}` : formatDate(expiresAt);
}

function withoutCurrent({ current: _current, ...token }: ApiTokenSummary): Omit<ApiTokenSummary, 'current'> {
  return token;
}
