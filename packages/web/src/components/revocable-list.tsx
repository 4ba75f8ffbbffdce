import { Trash2, TriangleAlert } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { CopyButton } from './copy-button';
import { LoadingBlock } from './sign-in-prompt';

/**
 * A secret shown whole once, right after it was made (an njin API key, an API token), with Copy.
 * Test ids: `testId`, `testId-value`, `testId-copy`.
 */
export function ShownOnceSecret({ message, value, what, testId }: { message: ReactNode; value: string; what: string; testId: string }) {
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-500/40 dark:bg-amber-500/10" data-testid={testId}>
      <p className="flex items-center gap-2 text-sm font-medium text-amber-800 dark:text-amber-200">
        <TriangleAlert className="h-4 w-4" aria-hidden />
        {message}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md bg-white px-3 py-2 font-mono text-xs break-all dark:bg-zinc-950" data-testid={`${testId}-value`}>
          {value}
        </code>
        <CopyButton text={() => value} what={what} copiedLabel="Copied!" data-testid={`${testId}-copy`} />
      </div>
    </div>
  );
}

export interface RevocableListProps<T extends { id: string }> {
  /** The list as read (a TanStack query's state). */
  query: { isPending: boolean; isError: boolean; data: readonly T[] | undefined };
  texts: { loading: string; failed: string; empty: string };
  /** Test ids of the empty line, the list, each row, its Revoke button and the dialog; `rowIdAttribute` carries the row's id. */
  testIds: { empty: string; list: string; row: string; rowIdAttribute: `data-${string}`; revoke: string; dialog: string };
  /** What a row says of its item, beside its Revoke button. */
  renderRow: (item: T) => ReactNode;
  confirm: { title: string; description: (item: T) => string };
  /** A revoke under way: the dialog stays open and shows it. */
  pending: boolean;
  /** Revokes `item` and says how it went (it does not throw); the dialog closes after it. */
  onRevoke: (item: T) => Promise<void>;
}

/** Revocable credentials of the user (njin API keys, API tokens): loading, failure, empty, the rows, and a confirmation before a revoke. */
export function RevocableList<T extends { id: string }>({ query, texts, testIds, renderRow, confirm, pending, onRevoke }: RevocableListProps<T>) {
  const [confirming, setConfirming] = useState<T | null>(null);
  return (
    <>
      {query.isPending ? (
        <LoadingBlock label={texts.loading} />
      ) : query.isError || !query.data ? (
        <p className="text-sm text-red-600 dark:text-red-400" role="alert">
          {texts.failed}
        </p>
      ) : query.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid={testIds.empty}>
          {texts.empty}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-100 dark:divide-zinc-800" data-testid={testIds.list}>
          {query.data.map((item) => (
            <li key={item.id} className="flex items-center justify-between gap-3 py-3" data-testid={testIds.row} {...{ [testIds.rowIdAttribute]: item.id }}>
              <div className="min-w-0">{renderRow(item)}</div>
              <Button variant="outline" size="sm" className="text-red-600 dark:text-red-400" onClick={() => setConfirming(item)} data-testid={testIds.revoke}>
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
          if (!open && !pending) setConfirming(null);
        }}
        title={confirm.title}
        description={confirming ? confirm.description(confirming) : ''}
        confirmLabel="Revoke"
        pending={pending}
        onConfirm={() => {
          if (confirming) void onRevoke(confirming).finally(() => setConfirming(null));
        }}
        testId={testIds.dialog}
      />
    </>
  );
}
