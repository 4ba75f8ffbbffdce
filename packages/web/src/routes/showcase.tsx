import { ComingSoon } from '../components/coming-soon';

/** Community Showcase; a later change builds the screen. */
export function ShowcasePage() {
  return <ComingSoon title="Community Showcase" description="Browse, download and buy projects that the pack has built." />;
}
