import { useParams } from 'react-router-dom';
import { ComingSoon } from '../components/coming-soon';

/** Project (/projects/:id); a later change builds the screen. */
export function ProjectDetailPage() {
  const { id } = useParams();
  return (
    <ComingSoon title="Project" description="The files and prompt evolution of one project.">
      <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400">id: {id}</p>
    </ComingSoon>
  );
}
