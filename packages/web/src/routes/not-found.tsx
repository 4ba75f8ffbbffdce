import { CircleAlert } from 'lucide-react';
import { Card } from '../components/card';

/** Any path the router does not know (spec core §2). */
export function NotFoundPage() {
  return (
    <div className="flex justify-center py-10">
      <Card className="w-full max-w-md p-6" data-testid="not-found">
        <div className="mb-4 flex items-center gap-2">
          <CircleAlert className="h-8 w-8 text-red-500" aria-hidden />
          <h1 className="text-2xl font-bold">404 Page Not Found</h1>
        </div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Did you forget to add the page to the router?</p>
      </Card>
    </div>
  );
}
