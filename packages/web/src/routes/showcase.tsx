import { Store } from 'lucide-react';
import { ListingMarketplace } from '../components/listing-marketplace';
import { PageHeader } from '../components/section-card';
import { SHOWCASE_PAGE_SIZE } from '../lib/showcase-query';

/** Community Showcase (/showcase, companion §2): the marketplace at 24 listings a page. */
export function ShowcasePage() {
  return (
    <div className="flex flex-col gap-6" data-testid="showcase-page">
      <PageHeader
        icon={<Store className="h-7 w-7" aria-hidden />}
        title="Community Showcase"
        description="Browse projects the pack has built: get the free ones in one click, or buy a commercial one."
      />
      <ListingMarketplace pageSize={SHOWCASE_PAGE_SIZE} gridClass="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" />
    </div>
  );
}
