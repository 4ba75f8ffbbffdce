import type { ReactNode } from 'react';
import { PawPrint } from 'lucide-react';
import { Card } from './card';

export interface AuthCardProps {
  title: string;
  subtitle: string;
  children: ReactNode;
  /** The line under the form, e.g. the link to the other auth screen. */
  footer: ReactNode;
}

/** The centred card shared by sign-in and account creation. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <div className="relative flex justify-center py-6 sm:py-12">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 mx-auto h-64 max-w-md rounded-full bg-brand/15 blur-3xl"
      />
      <Card className="w-full max-w-md p-8 shadow-lg">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="grid h-12 w-12 place-items-center rounded-2xl bg-brand text-brand-foreground shadow-md">
            <PawPrint className="h-6 w-6" aria-hidden />
          </span>
          <div className="flex flex-col gap-1">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            <p className="text-sm text-zinc-500 dark:text-zinc-400">{subtitle}</p>
          </div>
        </div>
        {children}
        <div className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">{footer}</div>
      </Card>
    </div>
  );
}
