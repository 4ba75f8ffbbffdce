import { Cpu, KeyRound, LineChart } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useNjinLicense } from '../api/njin';
import { useMe, usePaymentsConfigured } from '../api/queries';
import { NjinPaymentsOff } from '../components/njin-payments-off';
import { NjinSetupTab } from '../components/njin-setup-tab';
import { NjinUsageTab } from '../components/njin-usage-tab';
import { PageHeader } from '../components/section-card';
import { Tabs } from '../components/tabs';
import { toast } from '../hooks/use-toast';
import { CHECKOUT_POLL_LIMIT_MS, CHECKOUT_POLL_MS, checkoutReturnFrom } from '../lib/checkout-return';
import { LICENSE_LOAD_FAILED } from '../lib/njin-format';

const TAB_KEYS = ['setup', 'usage'] as const;
type NjinTab = (typeof TAB_KEYS)[number];

const TABS = [
  { key: 'setup', label: <><KeyRound className="h-4 w-4" aria-hidden />Setup</> },
  { key: 'usage', label: <><LineChart className="h-4 w-4" aria-hidden />Usage &amp; Stats</> },
] as const;

/**
 * The iteration-engine dashboard (/njin, companion §2): Setup (key, snippet, validation, install
 * guide, keys) and Usage & Stats (iterations, licence, the $29 subscription). The tab is in ?tab=
 * so the way back from Checkout lands on the licence.
 */
export function NjinPage() {
  const [params, setParams] = useSearchParams();
  const tab: NjinTab = params.get('tab') === 'usage' || checkoutReturnFrom(params) ? 'usage' : 'setup';
  const select = (next: NjinTab) => setParams(next === 'setup' ? {} : { tab: next }, { replace: true });
  const { user, isPending: mePending } = useMe();
  const paymentsConfigured = usePaymentsConfigured();
  const [apiKey, setApiKey] = useState('');

  // Back from a paid Checkout: the webhook may land after the browser, so read until it shows.
  const awaiting = checkoutReturnFrom(params)?.kind === 'success';
  const [polling, setPolling] = useState(awaiting);
  useEffect(() => {
    if (!awaiting) return;
    const timer = setTimeout(() => setPolling(false), CHECKOUT_POLL_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [awaiting]);
  // The client knows no user id (/api/auth/me answers username and plan); the server answers the
  // caller's own licence whatever userId says, so the username stands in for the spec's fixed id.
  const license = useNjinLicense(user?.username ?? null, polling ? CHECKOUT_POLL_MS : false);
  const active = license.data?.status === 'active';
  useEffect(() => {
    if (active) setPolling(false);
  }, [active]);

  // The spec's message, once per failed load, wherever the user is on the page.
  useEffect(() => {
    if (license.isError) toast({ title: 'Error', description: LICENSE_LOAD_FAILED, variant: 'destructive' });
  }, [license.isError]);

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6" data-testid="njin-page">
      <PageHeader
        icon={<Cpu className="h-7 w-7" aria-hidden />}
        title="njin"
        description="The iteration engine: send files and an instruction, get back a patch that passed the checks. Heavy changes go to several engines, and they vote only among the patches that pass."
      />
      {/* Said on both tabs: nobody should create keys or look for Subscribe Now before knowing. A
          user who holds a licence (the operator granted it) has nothing to buy or to ask for; until
          the sign-in check answers, nobody is known to be without one. */}
      {paymentsConfigured === false && !mePending && !(user && (license.isPending || active)) ? <NjinPaymentsOff username={user?.username ?? null} /> : null}
      <Tabs<NjinTab> label="njin sections" items={TABS} value={tab} onChange={select}>
        {tab === 'setup' ? (
          <NjinSetupTab apiKey={apiKey} onApiKeyChange={setApiKey} signedIn={user !== null} username={user?.username ?? null} paymentsConfigured={paymentsConfigured} licenceActive={active} />
        ) : (
          <NjinUsageTab
            signedIn={mePending || user !== null}
            license={user ? (license.isPending ? undefined : license.data) : undefined}
            loadFailed={license.isError}
            awaitingActivation={awaiting && polling}
          />
        )}
      </Tabs>
    </div>
  );
}
