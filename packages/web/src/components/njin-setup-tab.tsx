import type { NjinSnippetReply } from '@wolfpack/core';
import { BadgeCheck, ClipboardCopy, KeyRound, LoaderCircle, TerminalSquare } from 'lucide-react';
import { useState } from 'react';
import { useNjinSnippet, useValidateNjinKey } from '../api/njin';
import { toast } from '../hooks/use-toast';
import { copyText } from '../lib/clipboard';
import { KEY_REQUIRED, snippetFailure, typedKey, validateFailure, validateKeyProblem, validateOutcome } from '../lib/njin-format';
import { Button } from './button';
import { CopyButton } from './copy-button';
import { InputField } from './input-field';
import { NjinKeysCard } from './njin-keys-card';
import { SectionCard } from './section-card';
import { SignInPrompt } from './sign-in-prompt';

export interface NjinSetupTabProps {
  apiKey: string;
  onApiKeyChange: (key: string) => void;
  signedIn: boolean;
  /** The signed-in user's name, for the operator's grant command. */
  username?: string | null;
  /** From GET /api/billing/packs; undefined while unknown. */
  paymentsConfigured?: boolean | undefined;
  /** The user holds an active licence (paid or granted): the guide then asks for none. */
  licenceActive?: boolean;
}

/**
 * The Setup tab (companion §2, §5, §8): the key field, Copy Snippet and Validate (disabled
 * without a key), the two-step install guide, the snippet once fetched, and, for a signed-in
 * user, the key management.
 */
export function NjinSetupTab({ apiKey, onApiKeyChange, signedIn, username = null, paymentsConfigured, licenceActive = false }: NjinSetupTabProps) {
  const validate = useValidateNjinKey();
  const snippet = useNjinSnippet();
  const [shown, setShown] = useState<NjinSnippetReply | null>(null);
  const key = typedKey(apiKey);

  async function onValidate() {
    if (!key) return toast({ ...KEY_REQUIRED, variant: 'destructive' });
    const typo = validateKeyProblem(key);
    if (typo) return toast({ ...typo, variant: 'destructive' });
    try {
      const outcome = validateOutcome(await validate.mutateAsync(key), { paymentsConfigured, username });
      toast({ title: outcome.title, description: outcome.description, variant: outcome.ok ? 'default' : 'destructive' });
    } catch (error) {
      toast({ ...validateFailure(error), variant: 'destructive' });
    }
  }

  async function onCopySnippet() {
    if (!key) return toast({ ...KEY_REQUIRED, variant: 'destructive' });
    let reply: NjinSnippetReply;
    try {
      reply = await snippet.mutateAsync(key);
    } catch (error) {
      return toast({ ...snippetFailure(error), variant: 'destructive' });
    }
    setShown(reply);
    try {
      await copyText(reply.snippet);
      toast({ title: 'Copied!', description: 'The snippet is on your clipboard, with your key filled in.' });
    } catch {
      // The snippet is on screen; copying it by hand still works.
      toast({ title: 'Snippet ready', description: 'The browser did not allow copying; select the snippet below and copy it.' });
    }
  }

  return (
    <div className="flex flex-col gap-6" data-testid="njin-setup">
      <SectionCard icon={<KeyRound className="h-5 w-5" aria-hidden />} title="Your API key" description="Paste a key to check it or to get code with it filled in.">
        <InputField
          label="API key"
          name="njin-api-key"
          value={apiKey}
          onChange={(event) => onApiKeyChange(event.target.value)}
          placeholder="njin_…"
          autoComplete="off"
          spellCheck={false}
          data-testid="njin-api-key"
        />
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={!key || snippet.isPending} onClick={() => void onCopySnippet()} data-testid="njin-copy-snippet">
            {snippet.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <ClipboardCopy className="h-4 w-4" aria-hidden />}
            Copy Snippet
          </Button>
          <Button disabled={!key || validate.isPending} onClick={() => void onValidate()} data-testid="njin-validate">
            {validate.isPending ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : <BadgeCheck className="h-4 w-4" aria-hidden />}
            Validate
          </Button>
        </div>
      </SectionCard>

      <InstallGuide paymentsOff={paymentsConfigured === false} licenceActive={licenceActive} />

      {shown ? (
        <SectionCard
          icon={<TerminalSquare className="h-5 w-5" aria-hidden />}
          title="Your snippet"
          description={`Ready to paste (${shown.language}); it carries your key, so keep it out of public repositories.`}
          testId="njin-snippet"
          action={<CopyButton text={() => shown.snippet} what="the snippet" copiedLabel="Copied!" />}
        >
          <pre className="max-h-96 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100" data-testid="njin-snippet-code">
            {shown.snippet}
          </pre>
        </SectionCard>
      ) : null}

      {signedIn ? <NjinKeysCard onCreated={onApiKeyChange} /> : <SignInPrompt what="and create your njin API keys" />}
    </div>
  );
}

/** The two-step install guide; without payments, the licence comes from the operator. */
function InstallGuide({ paymentsOff, licenceActive }: { paymentsOff: boolean; licenceActive: boolean }) {
  return (
    <SectionCard icon={<TerminalSquare className="h-5 w-5" aria-hidden />} title="Install in two steps" testId="njin-install-guide">
      <ol className="flex flex-col gap-4 text-sm">
        <li className="flex gap-3">
          <StepNumber n={1} />
          <div>
            <p className="font-medium">Get your API key</p>
            <p className="text-zinc-600 dark:text-zinc-400" data-testid="njin-install-step-license">
              {licenceActive
                ? 'Your licence is active: create a key below and paste it into the field above. Validate tells you it works.'
                : paymentsOff
                ? 'Ask the server’s operator for a licence (licences cannot be bought on this server, see above), then create a key below and paste it into the field above. Validate tells you it works.'
                : 'Subscribe on the Usage & Stats tab, then create a key below and paste it into the field above. Validate tells you it works.'}
            </p>
          </div>
        </li>
        <li className="flex gap-3">
          <StepNumber n={2} />
          <div>
            <p className="font-medium">Add the snippet to your project</p>
            <p className="text-zinc-600 dark:text-zinc-400">
              Copy Snippet gives you curl and TypeScript calls of <code className="font-mono">POST /api/njin/iterate</code>; from a terminal,{' '}
              <code className="font-mono">wolfpack iterate --instruction &quot;…&quot; FILES</code> does the same. Only patches that pass the checks come back.
            </p>
          </div>
        </li>
      </ol>
    </SectionCard>
  );
}

function StepNumber({ n }: { n: number }) {
  return <span className="grid h-7 w-7 shrink-0 place-items-center rounded-full bg-brand/10 text-sm font-semibold text-brand-strong">{n}</span>;
}
