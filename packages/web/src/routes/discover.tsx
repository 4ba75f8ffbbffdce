import { ComingSoon } from '../components/coming-soon';

/** Discover; a later change builds the screen. */
export function DiscoverPage() {
  return <ComingSoon title="Discover" description="Trending and latest PackCast capsules from the pack." />;
}
