import { ComingSoon } from '../components/coming-soon';

/** njin; a later change builds the screen. */
export function NjinPage() {
  return <ComingSoon title="njin" description="The iteration-engine dashboard: your licence key, setup guide and usage." />;
}
