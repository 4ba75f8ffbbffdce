import { ComingSoon } from '../components/coming-soon';

/** My Capsules; a later change builds the screen. */
export function MyCapsulesPage() {
  return <ComingSoon title="My Capsules" description="Your PackCast capsules: recordings of your generation sessions, their views and shares." />;
}
