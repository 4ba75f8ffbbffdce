import { ComingSoon } from '../components/coming-soon';

/** Pricing; a later change builds the screen. */
export function PricingPage() {
  return <ComingSoon title="Pricing" description="Plans and credit packs for Wolfpack." />;
}
