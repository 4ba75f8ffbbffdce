/**
 * Trending order of public capsules: attention decayed by age, in the manner of Hacker News's
 * gravity. A share says more than a view (someone put their name to it), so it counts three
 * times; the +2 hours keeps a brand-new capsule from dividing by almost nothing.
 */

/** How much more one share counts than one view. */
export const TRENDING_SHARE_WEIGHT = 3;
/** Hours added to the age, so the first hours do not explode the score. */
export const TRENDING_AGE_OFFSET_HOURS = 2;
/** How fast attention fades with age. */
export const TRENDING_GRAVITY = 1.5;

/**
 * (views + 3 × shares) / (ageHours + 2)^1.5, with the age measured from `createdAt` to `now`
 * (never negative: a capsule "from the future" counts as brand new).
 */
export function trendingScore(viewCount: number, shareCount: number, createdAt: Date | string, now: Date | string): number {
  const created = new Date(createdAt).getTime();
  const at = new Date(now).getTime();
  const ageHours = Number.isFinite(created) && Number.isFinite(at) ? Math.max(0, (at - created) / 3_600_000) : 0;
  const attention = Math.max(0, viewCount) + TRENDING_SHARE_WEIGHT * Math.max(0, shareCount);
  return attention / (ageHours + TRENDING_AGE_OFFSET_HOURS) ** TRENDING_GRAVITY;
}

/**
 * Whether a view or a share counts towards a capsule's figures (and so its trending place): only
 * when it comes from somebody other than the capsule's owner. Owners open and share their own
 * capsules to check them; counting that would let anyone lift their own capsule.
 */
export function countsAsAudience(viewerUserId: string | null | undefined, ownerUserId: string): boolean {
  return viewerUserId !== ownerUserId;
}
