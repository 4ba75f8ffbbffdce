import { ArrowDownUp, ChevronLeft, ChevronRight, Filter, Search, SearchX, TriangleAlert } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { serverErrorText } from '../api/client';
import { useListings } from '../api/showcase';
import { cn } from '../lib/cn';
import {
  hasNextPage,
  isListingType,
  isShowcaseSort,
  LISTING_TYPE_LABELS,
  LISTING_TYPES,
  MAX_TECH_BADGES,
  parsePage,
  SHOWCASE_SORT_LABELS,
  SHOWCASE_SORTS,
  showcaseSortStore,
  SKELETON_CARDS,
  type ListingType,
} from '../lib/showcase-query';
import { Button } from './button';
import { ListingCard } from './listing-card';
import { ListingGridSkeleton } from './listing-grid-skeleton';
import { NoticeCard } from './notice-card';

/** How long typing pauses before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

export interface ListingMarketplaceProps {
  /** 24 on /showcase, 9 in the Outdoors tab (spec §9). */
  pageSize: number;
  /** Classes of the grid (and its skeleton). */
  gridClass: string;
  /** @default SKELETON_CARDS */
  skeletonCards?: number;
  /** @default MAX_TECH_BADGES */
  techLimit?: number;
}

const controlClass =
  'h-10 cursor-pointer rounded-lg border border-zinc-300 bg-white px-2.5 text-sm text-zinc-900 shadow-xs outline-none focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/**
 * A marketplace of listings (spec §2 Community Showcase): search, type filter, the four sorts (the
 * choice remembered in the browser), a grid of cards and Previous / Next. Search, type and page
 * live in the URL (?q, ?type, ?page), so Back from a listing returns to the same page.
 */
export function ListingMarketplace({ pageSize, gridClass, skeletonCards = SKELETON_CARDS, techLimit = MAX_TECH_BADGES }: ListingMarketplaceProps) {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const rawType = params.get('type');
  const type: ListingType = isListingType(rawType) ? rawType : 'all';
  const page = parsePage(params.get('page'));
  const sort = showcaseSortStore.use();
  const listings = useListings({ search, type, sort, page, pageSize });
  const [typed, setTyped] = useState(search);
  const searchId = useId();

  // The search the box last sent; a different ?q (Back, a link) replaces what the box holds.
  const sent = useRef(search);
  useEffect(() => {
    if (search === sent.current) return;
    sent.current = search;
    setTyped(search);
  }, [search]);

  // The search waiting for typing to pause. Every URL change sends what the box holds and cancels
  // the wait: a timer left running would later write a copy of the parameters from before a type,
  // sort or page chosen during the pause, and that choice would silently vanish.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  /** Sets URL parameters with the box's search; a new search or anything but paging starts at page 1. */
  const update = (patch: Record<string, string | null>) => {
    clearTimeout(pending.current);
    const q = typed.trim();
    const newSearch = q !== search;
    sent.current = q;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries({ q, ...patch })) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (newSearch || !('page' in patch)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  };

  const sendPendingSearch = useEffectEvent(() => update({}));
  useEffect(() => {
    if (typed.trim() === search) return;
    pending.current = setTimeout(sendPendingSearch, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(pending.current);
  }, [typed, search]);

  const rows = listings.data ?? [];
  const nextEnabled = listings.isSuccess && hasNextPage(rows.length, pageSize);

  return (
    <div className="flex flex-col gap-5" data-testid="listing-marketplace">
      <form
        role="search"
        className="flex flex-col gap-3 sm:flex-row sm:items-center"
        onSubmit={(event) => {
          event.preventDefault();
          update({});
        }}
      >
        <div className="relative flex-1">
          <label htmlFor={searchId} className="sr-only">
            Search projects
          </label>
          <Search className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-zinc-400" aria-hidden />
          <input
            id={searchId}
            type="search"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder="Search projects, summaries and tags…"
            maxLength={200}
            className="h-10 w-full rounded-lg border border-zinc-300 bg-white pr-3 pl-9 text-sm shadow-xs outline-none placeholder:text-zinc-400 focus-visible:border-brand focus-visible:ring-2 focus-visible:ring-brand/40 dark:border-zinc-700 dark:bg-zinc-950"
            data-testid="listing-search"
          />
        </div>
        <div className="flex gap-2">
          <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
            <Filter className="h-4 w-4" aria-hidden />
            <span className="sr-only">Type</span>
            <select value={type} onChange={(event) => isListingType(event.target.value) && update({ type: event.target.value === 'all' ? null : event.target.value })} className={controlClass} data-testid="listing-type">
              {LISTING_TYPES.map((value) => (
                <option key={value} value={value}>
                  {LISTING_TYPE_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
            <ArrowDownUp className="h-4 w-4" aria-hidden />
            <span className="sr-only">Sort</span>
            <select
              value={sort}
              onChange={(event) => {
                if (!isShowcaseSort(event.target.value)) return;
                showcaseSortStore.set(event.target.value);
                update({});
              }}
              className={controlClass}
              data-testid="listing-sort"
            >
              {SHOWCASE_SORTS.map((value) => (
                <option key={value} value={value}>
                  {SHOWCASE_SORT_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </form>

      {listings.isPending ? (
        <ListingGridSkeleton cards={skeletonCards} className={gridClass} />
      ) : listings.isError ? (
        <NoticeCard
          icon={TriangleAlert}
          tone="danger"
          title="Failed to load listings. Please try again."
          testId="listings-error"
          role="alert"
          actions={<Button variant="outline" size="sm" onClick={() => void listings.refetch()}>Try again</Button>}
        >
          {serverErrorText(listings.error) ?? 'Failed to fetch listings'}
        </NoticeCard>
      ) : rows.length === 0 ? (
        <NoticeCard icon={SearchX} title="No projects found. Try adjusting your filters." testId="listings-empty" />
      ) : (
        <ul
          className={cn(gridClass, listings.isPlaceholderData && 'opacity-60 transition-opacity')}
          aria-busy={listings.isFetching}
          data-testid="listing-grid"
          data-page={page}
        >
          {rows.map((listing) => (
            <li key={listing.id}>
              <ListingCard listing={listing} techLimit={techLimit} />
            </li>
          ))}
        </ul>
      )}

      <nav className="flex items-center justify-between gap-3" aria-label="Pages">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => update({ page: page - 1 <= 1 ? null : String(page - 1) })} data-testid="page-previous">
          <ChevronLeft className="h-4 w-4" aria-hidden />
          Previous
        </Button>
        <span className="text-sm text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="page-number" aria-live="polite">
          Page {page}
        </span>
        <Button variant="outline" size="sm" disabled={!nextEnabled || listings.isPlaceholderData} onClick={() => update({ page: String(page + 1) })} data-testid="page-next">
          Next
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </nav>
    </div>
  );
}
