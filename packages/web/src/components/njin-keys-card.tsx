import type { NjinKeySummary } from '@wolfpack/core';
import { KeySquare, LoaderCircle, Plus, Trash2, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { describeRequestFailure } from '../api/client';
import { useCreateNjinKey, useNjinApiKeys, useRevokeNjinKey } from '../api/njin';
import { toast } from '../hooks/use-toast';
import { formatExpiry, keyUsageText } from '../lib/njin-format';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { CopyButton } from './copy-button';
import { SectionCard } from './section-card';
import { LoadingBlock } from './sign-in-prompt';

/**
 * The user's API keys: create one (shown whole once, then only its prefix), list them with their
 * usage, revoke one. A new key also fills the page's key field, ready to validate.
 */
export function NjinKeysCard({ onCreated }: { onCreated: (apiKey: string) => void }) {
  const keys = useNjinApiKeys(true);
  const create = useCreateNjinKey();
  const revoke = useRevokeNjinKey();
  const [fresh, setFresh] = useState<{ id: string; apiKey: string } | null>(null);
  const [confirming, setConfirming] = useState<NjinKeySummary | null>(null);

  async function onCreate() {
    try {
      const reply = await create.mutateAsync();
      setFresh({ id: reply.id, apiKey: reply.apiKey });
      onCreated(reply.apiKey);
    } catch (error) {
      toast({ title: 'Key not created', description: describeRequestFailure(error, { failed: 'Failed to create an API key', exception: 'Failed to create an API key' }), variant: 'destructive' });
    }
  }

  async function onRevoke(key: NjinKeySummary) {
    try {
      await revoke.mutateAsync(key.id);
      if (fresh?.id === key.id) setFresh(null);
      setConfirming(null);
      toast({ title: 'Key revoked', description: `${key.prefix}… no longer works.` });
    } catch (error) {
      setConfirming(null);
      toast({ title: 'Key not revoked', description: describeRequestFailure(error, { failed: 'Failed to revoke the key', exception: 'Failed to revoke the key' }), variant: 'destructive' });
    }
  }

  return (
    <SectionCard
      icon={<KeySquare className="h-5 w-5" aria-hidden />}
      title="API keys"
      description="Keys are stored hashed: you see a key whole only when you create it."
      testId="njin-keys"
      action={
        <Button size="sm" onClick={() => void onCreate()} disabled={create.isPending} data-testid="njin-create-key">
          {create.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Plus className="h-4 w-4" aria-hidden />}
          Create key
        </Button>
      }
    >
      {fresh ? (
        <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-500/40 dark:bg-amber-500/10" data-testid="njin-new-key">
          <p className="flex items-center gap-2 text-sm font-medium text-amber-800 dark:text-amber-200">
            <TriangleAlert className="h-4 w-4" aria-hidden />
            Copy this key now: it will not be shown again.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono text-xs break-all dark:bg-zinc-950" data-testid="njin-new-key-value">
              {fresh.apiKey}
            </code>
            <CopyButton text={() => fresh.apiKey} what="the key" copiedLabel="Copied!" data-testid="njin-new-key-copy" />
          </div>
        </div>
      ) : null}

      {keys.isPending ? (
        <LoadingBlock label="Loading your API keys" />
      ) : keys.isError ? (
        <p className="text-sm text-red-600 dark:text-red-400" role="alert">
          Failed to load your API keys. Please refresh the page.
        </p>
      ) : keys.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="njin-no-keys">
          No keys yet. Create one to call the iteration API.
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid="njin-key-list">
          {keys.data.map((key) => (
            <li key={key.id} className="flex items-center justify-between gap-3 py-3" data-testid="njin-key-row" data-key-id={key.id}>
              <div className="min-w-0">
                <p className="font-mono text-sm" data-testid="njin-key-prefix">
                  {key.prefix}…
                </p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  Created {formatExpiry(key.createdAt)} · <span data-testid="njin-key-usage">{keyUsageText(key.usageCount, key.lastUsedAt)}</span>
                </p>
              </div>
              <Button variant="outline" size="sm" className="text-red-600 dark:text-red-400" onClick={() => setConfirming(key)} data-testid="njin-revoke-key">
                <Trash2 className="h-4 w-4" aria-hidden />
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !revoke.isPending) setConfirming(null);
        }}
        title="Revoke this key?"
        description={confirming ? `${confirming.prefix}… stops working at once; anything using it gets 401 until it uses another key.` : ''}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() => {
          if (confirming) void onRevoke(confirming);
        }}
        testId="njin-revoke-dialog"
      />
    </SectionCard>
  );
}
