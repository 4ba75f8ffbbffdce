import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from './button';
import { Card } from './card';

/**
 * Shown when a screen fails to render or its code cannot be loaded (typically a new deployment
 * replaced the lazily loaded chunk): a reload fetches the current version.
 */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <div className="mx-auto max-w-lg py-10">
      <Card className="flex flex-col items-start gap-3 p-8">
        <TriangleAlert className="h-6 w-6 text-red-600" aria-hidden />
        <h1 className="text-xl font-semibold">This page could not be shown</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{message}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Reload the page to try again.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Card>
    </div>
  );
}
