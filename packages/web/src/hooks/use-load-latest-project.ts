/**
 * Load Latest Project (spec core §2 Home): the most recently updated project's idea goes into the
 * prompt and its id becomes the continue-project id, so the next run builds on it.
 */
import { useState } from 'react';
import { describeRequestFailure, httpErrorParts } from '../api/client';
import { fetchLatestProject } from '../api/queries';
import { continueProjectIdStore } from '../lib/build-stores';
import { toast } from './use-toast';

export function useLoadLatestProject(onIdea: (idea: string) => void) {
  const [loading, setLoading] = useState(false);

  async function loadLatest(): Promise<void> {
    setLoading(true);
    try {
      const newest = await fetchLatestProject();
      if (!newest) {
        toast({ title: 'No Project Found', description: 'No previous project available to load' });
        return;
      }
      onIdea(newest.idea);
      continueProjectIdStore.set(newest.id);
      toast({ title: 'Continue Mode Enabled', description: 'Your next run builds on your latest project.' });
    } catch (error) {
      const description =
        httpErrorParts(error)?.status === 401
          ? 'Sign in to load your projects.'
          : describeRequestFailure(error, { failed: 'Failed to fetch projects', exception: 'Failed to fetch projects' });
      toast({ title: 'Error', description, variant: 'destructive' });
    } finally {
      setLoading(false);
    }
  }

  return { loadLatest, loading };
}
