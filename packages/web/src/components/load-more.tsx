import { LoaderCircle, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from './button';

export interface LoadMoreProps {
  /** Whether another page exists. */
  hasMore: boolean;
  /** A page is being read. */
  loading: boolean;
  /** The last read of a page failed: stop reading on scroll until the user asks again. */
  failed: boolean;
  onLoadMore: () => void;
  /** E.g. 'Showing 50 of 10,000'. */
  status: string;
  /** @default 'load-more' */
  testId?: string;
}

/**
 * The end of a paged list: the next page is read as the end scrolls into view (600 px early, so
 * scrolling rarely waits), and a "Load more" button does the same for keyboards and screen
 * readers, or after a failed read.
 */
export function LoadMore({ hasMore, loading, failed, onLoadMore, status, testId = 'load-more' }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState(false);

  useEffect(() => {
    const element = sentinel.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setInView(entries.some((entry) => entry.isIntersecting)), { rootMargin: '600px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Re-checked after every page: while the end stays in view (a tall window) pages keep coming.
  useEffect(() => {
    if (inView && hasMore && !loading && !failed) onLoadMore();
  }, [inView, hasMore, loading, failed, onLoadMore]);

  return (
    <div ref={sentinel} className="flex flex-col items-center gap-2 py-2" data-testid={testId}>
      <p className="text-sm text-zinc-500 dark:text-zinc-400" data-testid={`${testId}-status`} aria-live="polite">
        {status}
      </p>
      {failed ? (
        <p className="flex items-center gap-1.5 text-sm text-red-600 dark:text-red-400" role="alert">
          <TriangleAlert className="h-4 w-4" aria-hidden />
          Failed to fetch projects
        </p>
      ) : null}
      {hasMore ? (
        <Button variant="outline" onClick={onLoadMore} disabled={loading} data-testid={`${testId}-button`}>
          {loading ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {loading ? 'Loading more…' : failed ? 'Try again' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
