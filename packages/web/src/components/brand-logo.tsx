import { PawPrint } from 'lucide-react';
import { Link } from 'react-router-dom';

/** The Wolfpack mark and word, linking home. */
export function BrandLogo() {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-lg font-semibold tracking-tight" aria-label="Wolfpack home">
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-brand text-brand-foreground shadow-sm">
        <PawPrint className="h-4.5 w-4.5" aria-hidden />
      </span>
      <span className="text-lg">Wolfpack</span>
    </Link>
  );
}
