import { saveGithubTokenRequest } from '@wolfpack/core';
import { CircleCheck, ExternalLink, GitBranch, KeyRound, LoaderCircle, LogIn, Unplug } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { useDisconnectGithub, useGithubSettings, useSaveGithubToken } from '../api/library';
import { useMe } from '../api/queries';
import { toast } from '../hooks/use-toast';
import { Button } from './button';
import { InputField } from './input-field';

const NEW_TOKEN_URL = 'https://github.com/settings/tokens/new?scopes=repo&description=Wolfpack';

/**
 * The GitHub account publishing uses: a token saved on the server (checked with GitHub first,
 * stored encrypted, never shown again), or the account it belongs to with Disconnect.
 */
export function GithubSettings() {
  const { user, isPending: mePending } = useMe();
  const settings = useGithubSettings(user !== null);

  if (mePending || (user && settings.isPending)) {
    return (
      <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
        <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
        Checking the GitHub connection...
      </p>
    );
  }
  if (!user || httpErrorParts(settings.error)?.status === 401) {
    return (
      <p className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400" data-testid="github-sign-in">
        <LogIn className="h-4 w-4" aria-hidden />
        <span>
          <Link to="/login" className="font-medium text-brand-strong hover:underline">
            Sign in
          </Link>{' '}
          to connect your GitHub account.
        </span>
      </p>
    );
  }
  if (settings.isError) {
    return (
      <p className="text-sm text-red-600 dark:text-red-400" role="alert">
        {describeRequestFailure(settings.error, { failed: 'The GitHub connection could not be read.', exception: 'Check your connection.' })}
      </p>
    );
  }
  return settings.data?.connected ? <Connected login={settings.data.login} /> : <TokenForm />;
}

function Connected({ login }: { login: string | null }) {
  const disconnect = useDisconnectGithub();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-emerald-200 bg-emerald-50/60 px-4 py-3 dark:border-emerald-500/30 dark:bg-emerald-500/10" data-testid="github-connected">
      <div className="flex items-center gap-3">
        <span className="grid h-10 w-10 place-items-center rounded-full bg-zinc-900 text-white dark:bg-white dark:text-zinc-900">
          <GitBranch className="h-5 w-5" aria-hidden />
        </span>
        <div>
          <p className="flex items-center gap-1.5 text-sm font-medium">
            <CircleCheck className="h-4 w-4 text-emerald-600" aria-hidden />
            Connected
          </p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Publishing as <span className="font-medium text-zinc-900 dark:text-white" data-testid="github-login">{login ?? 'your GitHub account'}</span>
          </p>
        </div>
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={disconnect.isPending}
        data-testid="github-disconnect"
        onClick={() =>
          disconnect.mutate(undefined, {
            onSuccess: () => toast({ title: 'GitHub Disconnected', description: 'The saved token was removed from Wolfpack.' }),
            onError: (error) =>
              toast({
                title: 'Error',
                description: describeRequestFailure(error, { failed: 'Failed to disconnect GitHub', exception: 'Failed to disconnect GitHub' }),
                variant: 'destructive',
              }),
          })
        }
      >
        {disconnect.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <Unplug className="h-4 w-4" aria-hidden />}
        Disconnect
      </Button>
    </div>
  );
}

function TokenForm() {
  const save = useSaveGithubToken();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = saveGithubTokenRequest.safeParse({ token });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    save.mutate(parsed.data.token, {
      onSuccess: (reply) => {
        setToken('');
        toast({ title: 'GitHub Connected', description: `Projects now publish to ${reply.login ?? 'your account'}.` });
      },
      onError: (failure) =>
        setError(describeRequestFailure(failure, { failed: 'GitHub did not accept the token.', exception: 'Check your connection and try again.' })),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="github-token-form">
      <div className="rounded-xl bg-zinc-50 p-4 text-sm text-zinc-600 dark:bg-zinc-800/50 dark:text-zinc-300">
        <p className="flex items-center gap-2 font-medium text-zinc-900 dark:text-white">
          <KeyRound className="h-4 w-4 text-brand" aria-hidden />
          A personal access token is needed
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            A classic token needs the <code className="rounded bg-zinc-200/70 px-1 font-mono text-xs dark:bg-zinc-700">repo</code> scope
            (<code className="rounded bg-zinc-200/70 px-1 font-mono text-xs dark:bg-zinc-700">public_repo</code> is enough for public repositories only).
          </li>
          <li>A fine-grained token needs write access to Administration and Contents.</li>
          <li>Wolfpack checks the token with GitHub, stores it encrypted and never shows it again.</li>
        </ul>
        <a href={NEW_TOKEN_URL} target="_blank" rel="noreferrer" className="mt-2 inline-flex items-center gap-1 font-medium text-brand-strong hover:underline">
          Create a token on GitHub
          <ExternalLink className="h-3.5 w-3.5" aria-hidden />
        </a>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <div className="flex-1">
          <InputField
            label="GitHub token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="ghp_..."
            value={token}
            onChange={(event) => setToken(event.target.value)}
            error={error}
            disabled={save.isPending}
            data-testid="github-token"
          />
        </div>
        <Button type="submit" className="sm:mt-7" disabled={save.isPending} data-testid="github-save">
          {save.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {save.isPending ? 'Checking...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
