/**
 * The signed-in user's savings from the server (GET /api/savings), with this browser session's
 * share. Called by the app's frame as well as Home's card, so the session starts at the first
 * page of the visit, whichever it is (a Lab experiment before the first look at Home counts).
 */
import type { SavingsReply } from '@wolfpack/core';
import { useEffect } from 'react';
import { useMe, useSavings } from '../api/queries';
import type { SavingsTotals } from '../lib/savings-counters';
import { beginSessionAt, readSessionStart, sessionSince } from '../lib/savings-session';

/** sessionStorage, or nothing when it is disabled (the session then starts with each page load). */
function sessionStore(): Storage | undefined {
  try {
    return window.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}

export interface ServerSavings {
  /** A visitor: nothing to show but a way to sign in. */
  visitor: boolean;
  savings: SavingsReply | undefined;
  /** Saved since this browser session began (zeros until the figures arrive). */
  session: SavingsTotals | undefined;
  isError: boolean;
}

export function useServerSavings(): ServerSavings {
  const { user, isPending: mePending } = useMe();
  const username = user?.username ?? null;
  const query = useSavings(username !== null);
  const allTime = query.data?.allTime;
  useEffect(() => {
    const store = sessionStore();
    if (store && username !== null && allTime) beginSessionAt(store, username, allTime);
  }, [username, allTime]);
  const store = sessionStore();
  // Before the effect stores it, the session starts with the figures now shown: nothing yet.
  const start = username !== null && allTime ? ((store && readSessionStart(store, username)) ?? allTime) : null;
  return {
    // A 401 (the session ended in another tab) reads as null: signed out, for this card.
    visitor: (!mePending && user === null) || query.data === null,
    savings: username !== null ? (query.data ?? undefined) : undefined,
    session: allTime ? sessionSince(allTime, start) : undefined,
    isError: query.isError,
  };
}
