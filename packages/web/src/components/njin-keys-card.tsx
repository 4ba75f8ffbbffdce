import type { NjinKeySummary } from '@wolfpack/core';
import { KeySquare, LoaderCircle, Plus } from 'lucide-react';
import { useState } from 'react';
import { describeRequestFailure } from '../api/client';
import { useCreateNjinKey, useNjinApiKeys, useRevokeNjinKey } from '../api/njin';
import { toast } from '../hooks/use-toast';
import { formatExpiry, keyUsageText } from '../lib/njin-format';
import { Button } from './button';
import { RevocableList, ShownOnceSecret } from './revocable-list';
import { SectionCard } from './section-card';

/**
 * The user's API keys: create one (shown whole once, then only its prefix), list them with their
 * usage, revoke one. A new key also fills the page's key field, ready to validate.
 */
export function NjinKeysCard({ onCreated }: { onCreated: (apiKey: string) => void }) {
  const keys = useNjinApiKeys(true);
  const create = useCreateNjinKey();
  const revoke = useRevokeNjinKey();
  const [fresh, setFresh] = useState<{ id: string; apiKey: string } | null>(null);

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
      toast({ title: 'Key revoked', description: `${key.prefix}… no longer works.` });
    } catch (error) {
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
      {fresh ? <ShownOnceSecret message="Copy this key now: it will not be shown again." value={fresh.apiKey} what="the key" testId="njin-new-key" /> : null}

      <RevocableList
        query={keys}
        texts={{ loading: 'Loading your API keys', failed: 'Failed to load your API keys. Please refresh the page.', empty: 'No keys yet. Create one to call the iteration API.' }}
        testIds={{ empty: 'njin-no-keys', list: 'njin-key-list', row: 'njin-key-row', rowIdAttribute: 'data-key-id', revoke: 'njin-revoke-key', dialog: 'njin-revoke-dialog' }}
        renderRow={(key) => (
          <>
            <p className="font-mono text-sm" data-testid="njin-key-prefix">
              {key.prefix}…
            </p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              Created {formatExpiry(key.createdAt)} · <span data-testid="njin-key-usage">{keyUsageText(key.usageCount, key.lastUsedAt)}</span>
            </p>
          </>
        )}
        confirm={{ title: 'Revoke this key?', description: (key) => `${key.prefix}… stops working at once; anything using it gets 401 until it uses another key.` }}
        pending={revoke.isPending}
        onRevoke={onRevoke}
      />
    </SectionCard>
  );
}
