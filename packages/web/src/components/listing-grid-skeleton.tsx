import { SKELETON_CARDS } from '../lib/showcase-query';
import { Card } from './card';
import { Skeleton } from './skeleton';

/** The grid while the first page loads: 8 grey cards (spec §9). */
export function ListingGridSkeleton({ cards = SKELETON_CARDS, className }: { cards?: number; className: string }) {
  return (
    <div className={className} role="status" aria-label="Loading listings" data-testid="listing-skeleton">
      {Array.from({ length: cards }, (_, i) => (
        <Card key={i} className="flex flex-col overflow-hidden" data-testid="listing-skeleton-card">
          <Skeleton className="aspect-[16/9]" />
          <div className="flex flex-col gap-2 p-4">
            <Skeleton shade="strong" className="h-4 w-3/4 rounded" />
            <Skeleton shade="faint" className="h-3 w-full rounded" />
            <Skeleton shade="faint" className="h-3 w-2/3 rounded" />
            <div className="mt-2 flex gap-1.5">
              <Skeleton shade="faint" className="h-5 w-12 rounded" />
              <Skeleton shade="faint" className="h-5 w-14 rounded" />
            </div>
          </div>
        </Card>
      ))}
    </div>
  );
}
