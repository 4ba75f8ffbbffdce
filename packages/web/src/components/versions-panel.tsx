import { Card } from './card';

export interface VersionsPanelProps {
  projectId: string;
  /** The project's current version; null from a server that does not say. */
  currentVersion: number | null;
}

/** The project page's Versions tab. */
export function VersionsPanel({ projectId }: VersionsPanelProps) {
  return (
    <Card className="px-6 py-12 text-center text-sm text-zinc-600 dark:text-zinc-400" data-testid="versions-panel" data-project={projectId}>
      Versions
    </Card>
  );
}
