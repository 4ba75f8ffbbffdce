import { Compass } from 'lucide-react';
import { CapsuleDiscovery } from '../components/capsule-discovery';
import { PageHeader } from '../components/section-card';

/** Discovery (/discover, companion §2): trending and latest public PackCast capsules. */
export function DiscoverPage() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <PageHeader
        icon={<Compass className="h-7 w-7" aria-hidden />}
        title="Discover"
        description="Trending and latest PackCast capsules: recorded generation sessions shared by the pack."
      />
      <CapsuleDiscovery />
    </div>
  );
}
