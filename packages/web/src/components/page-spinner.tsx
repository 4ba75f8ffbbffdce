import { LoaderCircle } from 'lucide-react';

/** Shown while a lazily loaded screen arrives. */
export function PageSpinner() {
  return (
    <div className="grid min-h-[40vh] place-items-center" role="status" aria-label="Loading">
      <LoaderCircle className="h-6 w-6 animate-spin text-brand" aria-hidden />
    </div>
  );
}
