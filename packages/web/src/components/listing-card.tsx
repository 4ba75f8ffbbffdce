import type { Listing } from '@wolfpack/core';
import { Link } from 'react-router-dom';
import { cn } from '../lib/cn';
import { listingPriceLabel, MAX_TECH_BADGES, techBadges } from '../lib/showcase-query';
import { Card } from './card';

/** FREE in green, a price in the brand colour (spec §2: "price or FREE badge"). */
export function ListingPriceBadge({ listing, className }: { listing: Pick<Listing, 'visibility' | 'priceCents'>; className?: string }) {
  const free = listing.visibility === 'free';
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold tabular-nums',
        free ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300' : 'bg-brand/15 text-brand-strong',
        className,
      )}
      data-testid="listing-price"
    >
      {listingPriceLabel(listing)}
    </span>
  );
}

/** At most `max` tech badges, then "+N" for the rest (spec §9). */
export function TechBadges({ techStack, max = MAX_TECH_BADGES }: { techStack: readonly string[]; max?: number }) {
  const { shown, more } = techBadges(techStack, max);
  if (shown.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Tech stack" data-testid="listing-tech">
      {shown.map((tech) => (
        <li key={tech} className="rounded-md bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" data-testid="tech-badge">
          {tech}
        </li>
      ))}
      {more > 0 ? (
        <li className="rounded-md px-1.5 py-0.5 text-xs font-medium text-zinc-500 dark:text-zinc-400" data-testid="tech-more" aria-label={`${more} more`}>
          +{more}
        </li>
      ) : null}
    </ul>
  );
}

/** One listing of a marketplace grid; the whole card links to /showcase/{id}. */
export function ListingCard({ listing, techLimit = MAX_TECH_BADGES }: { listing: Listing; techLimit?: number }) {
  return (
    <Card className="group relative flex h-full flex-col overflow-hidden transition-all hover:border-brand/40 hover:shadow-md" data-testid="listing-card" data-listing-id={listing.id}>
      <div className="aspect-[16/9] overflow-hidden bg-zinc-100 dark:bg-zinc-800">
        {listing.coverImage ? (
          <img src={listing.coverImage} alt="" loading="lazy" className="h-full w-full object-cover transition-transform group-hover:scale-[1.02]" />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2.5 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="min-w-0 font-semibold leading-snug break-words" data-testid="listing-title">
            {/* The stretched link makes the whole card clickable while keeping one link for screen readers. */}
            <Link to={`/showcase/${encodeURIComponent(listing.id)}`} className="outline-none after:absolute after:inset-0 after:content-[''] focus-visible:underline">
              {listing.title}
            </Link>
          </h3>
          <ListingPriceBadge listing={listing} className="shrink-0" />
        </div>
        <p className="line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">{listing.summary}</p>
        <div className="mt-auto flex flex-col gap-2 pt-1">
          <TechBadges techStack={listing.techStack} max={techLimit} />
          {listing.sellerName ? <p className="text-xs text-zinc-500 dark:text-zinc-400">by {listing.sellerName}</p> : null}
        </div>
      </div>
    </Card>
  );
}
