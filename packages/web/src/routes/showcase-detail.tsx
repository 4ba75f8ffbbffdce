import { useParams } from 'react-router-dom';
import { ComingSoon } from '../components/coming-soon';

/** Showcase Listing (/showcase/:id); a later change builds the screen. */
export function ShowcaseDetailPage() {
  const { id } = useParams();
  return (
    <ComingSoon title="Showcase Listing" description="The details of one showcase listing: stack, prompts, links and purchase.">
      <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400">id: {id}</p>
    </ComingSoon>
  );
}
