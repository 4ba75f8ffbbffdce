import { newApiTokenRequest, type ApiTokenSummary } from '@wolfpack/core';
import { LoaderCircle, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';
import { describeRequestFailure } from '../api/client';
import { toast } from '../hooks/use-toast';
import { formatDate } from '../lib/format-time';
import { Button } from './button';
import { InputField } from './input-field';
import { RevocableList, ShownOnceSecret } from './revocable-list';

/** The expiry choices, in days; "" is never. */
const EXPIRY_CHOICES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
];

/**
 * Personal access tokens for scripts and CI (WOLFPACK_TOKEN): create one with a name and an
 * expiry (shown whole once), list them with when they were made and last used, revoke one.
 */
export function ApiTokensSettings() {
  const tokens = useApiTokens(true);
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | undefined>();
  const [fresh, setFresh] = useState<{ id: string; name: string; token: string } | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = newApiTokenRequest.safeParse({ name, expiresInDays: expiry === '' ? null : Number(expiry) });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    create.mutate(parsed.data, {
      onSuccess: (reply) => {
        setName('');
        setFresh({ id: reply.apiToken.id, name: reply.apiToken.name, token: reply.token });
      },
      onError: (failure) => setError(describeRequestFailure(failure, { failed: 'The token was not created.', exception: 'Check your connection and try again.' })),
    });
  }

  async function onRevoke(token: ApiTokenSummary) {
    try {
      await revoke.mutateAsync(token.id);
      if (fresh?.id === token.id) setFresh(null);
      toast({ title: 'Token revoked', description: `${token.name} no longer works.` });
    } catch (failure) {
      toast({ title: 'Token not revoked', description: describeRequestFailure(failure, { failed: 'Failed to revoke the token', exception: 'Failed to revoke the token' }), variant: 'destructive' });
    }
  }

  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3" data-testid="api-token-form">
        <div className="min-w-48 flex-1">
          <InputField label="Token name" placeholder="github-actions" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} error={error} data-testid="api-token-name" />
        </div>
        <label className="flex flex-col gap-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Expires after
          <select
            className="h-10 rounded-lg border border-zinc-300 bg-white px-3 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            data-testid="api-token-expiry"
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.label} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" disabled={create.isPending} data-testid="api-token-create">
          {create.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Plus className="h-4 w-4" aria-hidden />}
          Create token
        </Button>
      </form>

      {fresh ? (
        <ShownOnceSecret
          message={<>Copy {fresh.name} now: it will not be shown again. Use it as WOLFPACK_TOKEN in your CI&apos;s secrets.</>}
          value={fresh.token}
          what="the token"
          testId="api-token-new"
        />
      ) : null}

      <RevocableList
        query={tokens}
        texts={{ loading: 'Loading your API tokens', failed: 'Your API tokens could not be loaded. Reload the page to try again.', empty: 'No API tokens yet. Create one for a CI job or a script.' }}
        testIds={{ empty: 'api-token-none', list: 'api-token-list', row: 'api-token-row', rowIdAttribute: 'data-token-id', revoke: 'api-token-revoke', dialog: 'api-token-revoke-dialog' }}
        renderRow={(token) => (
          <>
            <p className="truncate text-sm font-medium" data-testid="api-token-row-name">
              {token.name}
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="api-token-row-dates">
              Created {formatDate(token.createdAt)} · {token.lastUsedAt ? `Last used ${formatDate(token.lastUsedAt)}` : 'Never used'} · {expiryText(token.expiresAt)}
            </p>
          </>
        )}
        confirm={{ title: 'Revoke this token?', description: (token) => `${token.name} stops working at once: a script or CI job using it fails until it gets another token.` }}
        pending={revoke.isPending}
        onRevoke={onRevoke}
      />
    </div>
  );
}

function expiryText(expiresAt: string | null): string {
  if (expiresAt === null) return 'Never expires';
  return Date.parse(expiresAt) <= Date.now() ? `Expired ${formatDate(expiresAt)}` : `Expires ${formatDate(expiresAt)}`;
}
