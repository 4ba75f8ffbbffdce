/**
 * Asks before unsaved text is lost: the browser's own question when the page is left or reloaded
 * (beforeunload), and the app's for a move inside it (another file, another tab, another page).
 */
import { useEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router-dom';

/**
 * `dirty` says whether there is unsaved text. The returned `settled` is for a change that has just
 * made the text saved (or dropped it) and moves on at once, before React renders the new state.
 */
export function useUnsavedGuard(dirty: boolean): { blocker: Blocker; settled: () => void } {
  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyNow.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);

  return {
    blocker,
    settled: () => {
      dirtyNow.current = false;
    },
  };
}
