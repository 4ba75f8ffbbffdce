import { ComingSoon } from '../components/coming-soon';

/** Outdoors; a later change builds the screen. */
export function OutdoorsPage() {
  return <ComingSoon title="Outdoors" description="The community page: the showcase, trending capsules and more, in three tabs." />;
}
