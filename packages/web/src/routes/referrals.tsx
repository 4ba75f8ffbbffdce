import { ComingSoon } from '../components/coming-soon';

/** Pack Perks; a later change builds the screen. */
export function ReferralsPage() {
  return <ComingSoon title="Pack Perks" description="Invite friends and earn free compute credits." />;
}
