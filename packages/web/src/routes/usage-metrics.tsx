import { ComingSoon } from '../components/coming-soon';

/** Usage & Savings; a later change builds the screen. */
export function UsageMetricsPage() {
  return <ComingSoon title="Usage & Savings" description="Your savings dashboard: time and cost saved per session, per month and in total." />;
}
