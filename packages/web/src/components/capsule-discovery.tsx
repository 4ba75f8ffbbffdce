import { Flame, Radio, Sparkles, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useDiscoverCapsules, type DiscoverTab } from '../api/capsules';
import { Button } from './button';
import { CapsuleCard, CapsuleCardSkeleton } from './capsule-card';
import { NoticeCard } from './notice-card';
import { Tabs } from './tabs';

/** How many skeleton cards stand in for a loading list (one full row at each breakpoint). */
const SKELETON_CARDS = 6;

const TABS = [
  {
    key: 'trending',
    label: (
      <>
        <Flame className="h-4 w-4" aria-hidden />
        Trending
      </>
    ),
  },
  {
    key: 'latest',
    label: (
      <>
        <Sparkles className="h-4 w-4" aria-hidden />
        Latest
      </>
    ),
  },
] as const;

export interface CapsuleDiscoveryProps {
  /** @default 'trending' */
  initialTab?: DiscoverTab;
}

/**
 * Public capsules in Trending and Latest tabs (companion §2 Discovery): cards in a 3-column grid,
 * skeleton cards while loading, and an empty or error state. Used by /discover and the Outdoors page.
 */
export function CapsuleDiscovery({ initialTab = 'trending' }: CapsuleDiscoveryProps) {
  const [tab, setTab] = useState<DiscoverTab>(initialTab);
  return (
    <div data-testid="capsule-discovery">
      <Tabs items={TABS} value={tab} onChange={setTab} label="Capsule lists">
        <CapsuleList tab={tab} />
      </Tabs>
    </div>
  );
}

function CapsuleList({ tab }: { tab: DiscoverTab }) {
  const query = useDiscoverCapsules(tab);
  const grid = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

  if (query.isPending) {
    return (
      <div className={grid} role="status" aria-label="Loading capsules" data-testid="capsule-skeletons">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <CapsuleCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (query.isError) {
    const retry = (
      <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
        Try again
      </Button>
    );
    return (
      <NoticeCard icon={TriangleAlert} tone="danger" title="Capsules could not be loaded" testId="capsule-discovery-error" actions={retry}>
        Something went wrong while loading the capsules. Please try again.
      </NoticeCard>
    );
  }
  if (query.data.length === 0) {
    return (
      <NoticeCard icon={Radio} tone="brand" title="No capsules yet" testId="capsule-discovery-empty" link={{ to: '/', label: 'Start building' }}>
        No one has published a PackCast capsule yet. Build a project, then publish its capsule from My Capsules to be the first.
      </NoticeCard>
    );
  }
  return (
    <div className={grid} data-testid={`capsule-grid-${tab}`}>
      {query.data.map((capsule) => (
        <CapsuleCard key={capsule.id} capsule={capsule} />
      ))}
    </div>
  );
}
