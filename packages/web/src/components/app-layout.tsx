import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useServerSavings } from '../hooks/use-server-savings';
import { rememberReferralCode } from '../lib/referral-code';
import { PageSpinner } from './page-spinner';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * The frame of every screen: header, the routed screen, footer. Screens load lazily inside the
 * Suspense boundary, so the header and footer paint at once on the first visit.
 */
export function AppLayout() {
  // A referral link (?ref=WPXXXXXX) may point at any page; the code waits for the sign-up.
  const { search } = useLocation();
  useEffect(() => rememberReferralCode(search), [search]);
  // The session's savings start at the visit's first page, whichever screen it is.
  useServerSavings();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
