import { ComingSoon } from '../components/coming-soon';

/** Admin Metrics; a later change builds the screen. */
export function AdminMetricsPage() {
  return <ComingSoon title="Admin Metrics" description="Business metrics for operators: revenue, costs and per-project spend." />;
}
