import { useParams } from 'react-router-dom';
import { ComingSoon } from '../components/coming-soon';

/** PackCast Capsule (/capsules/:slug); a later change builds the screen. */
export function CapsulePage() {
  const { slug } = useParams();
  return (
    <ComingSoon title="PackCast Capsule" description="A shared recording of a generation session.">
      <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400">slug: {slug}</p>
    </ComingSoon>
  );
}
