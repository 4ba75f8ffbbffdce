import { ComingSoon } from '../components/coming-soon';

/** Account; a later change builds the screen. */
export function AccountPage() {
  return <ComingSoon title="Account" description="Your account information, plan and credit balance." />;
}
