import { LogIn, UserPlus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from './button';
import { Card } from './card';

/** Asks a visitor to sign in to see something that belongs to an account. */
export function SignInPrompt({ what }: { what: string }) {
  return (
    <Card className="flex flex-col items-start gap-3 p-6" data-testid="sign-in-prompt">
      <p className="font-semibold">Sign in to see {what}</p>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Credits, usage and rewards belong to an account. New accounts start with $10 of credits plus this month&apos;s $5
        grant.
      </p>
      <SignInLinks />
    </Card>
  );
}

/** The Sign in and Sign Up buttons, wherever a page needs an account. */
export function SignInLinks() {
  return (
    <div className="flex gap-2">
      <Link to="/login" className={buttonClass('primary', 'sm')}>
        <LogIn className="h-4 w-4" aria-hidden />
        Sign in
      </Link>
      <Link to="/register" className={buttonClass('outline', 'sm')}>
        <UserPlus className="h-4 w-4" aria-hidden />
        Sign Up
      </Link>
    </div>
  );
}

/** A block that waits for its data: grey bars of the given height. */
export function LoadingBlock({ rows = 2, label }: { rows?: number; label: string }) {
  return (
    <div className="flex flex-col gap-2" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-14 animate-pulse rounded-lg bg-zinc-100 dark:bg-zinc-800" />
      ))}
    </div>
  );
}
