import { KeyRound, Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from './button';
import { Card } from './card';
import { InputField } from './input-field';

export interface AdminLoginProps {
  onSubmit(secret: string): void;
  /** "Unauthorized" after a wrong secret, or the lock-out sentence. */
  error: string | null;
}

/**
 * The lock screen of /admin/metrics (companion §2, §4 Admin). It says where the development secret
 * is kept, never the secret itself: this page is reachable by anyone who can reach the server.
 */
export function AdminLogin({ onSubmit, error }: AdminLoginProps) {
  const [secret, setSecret] = useState('');
  const empty = secret.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A form submit is what Enter does in the field, so Enter and the button behave alike.
    if (!empty) onSubmit(secret.trim());
  };
  return (
    <Card className="mx-auto w-full max-w-md p-6" data-testid="admin-login">
      <form className="flex flex-col gap-4" onSubmit={submit}>
        <div className="flex items-center gap-3">
          <span className="grid h-10 w-10 place-items-center rounded-lg bg-brand/10 text-brand-strong">
            <Lock className="h-5 w-5" aria-hidden />
          </span>
          <div>
            <h2 className="font-semibold">Admin access</h2>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">Type the admin secret to see the business metrics.</p>
          </div>
        </div>
        <InputField
          label="Admin secret"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          error={error ?? undefined}
          data-testid="admin-secret-input"
        />
        <Button type="submit" disabled={empty} data-testid="admin-access">
          <KeyRound className="h-4 w-4" aria-hidden />
          Access Dashboard
        </Button>
        <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="admin-secret-hint">
          Development secret: the <code>adminSecret</code> field of <code>secrets.json</code> in the server&apos;s data directory
          (<code>WOLFPACK_DATA_DIR</code>, <code>./data</code> by default), generated at the first start. When the server sets{' '}
          <code>WOLFPACK_ADMIN_SECRET</code>, that value is the secret instead. The server&apos;s start-up log names the file.
        </p>
      </form>
    </Card>
  );
}
