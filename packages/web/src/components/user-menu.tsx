import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { PublicUser } from '@wolfpack/core';
import { formatCents } from '@wolfpack/core';
import { ChevronDown, LogOut, Plus, UserRound } from 'lucide-react';
import { Link } from 'react-router-dom';
import { logout, useBalance } from '../api/queries';

const itemClass =
  'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm text-zinc-700 outline-none data-[highlighted]:bg-zinc-100 data-[highlighted]:text-zinc-900 dark:text-zinc-300 dark:data-[highlighted]:bg-zinc-800 dark:data-[highlighted]:text-white';

/** The signed-in user's menu: username, plan and credit balance, with Logout. */
export function UserMenu({ user }: { user: PublicUser }) {
  const balance = useBalance();
  const amount = balance.data ? formatCents(balance.data.balanceCents) : null;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-zinc-200 bg-white py-1 pr-2.5 pl-1 text-sm shadow-xs transition-colors outline-none hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-brand/50 data-[state=open]:bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:bg-zinc-800 dark:data-[state=open]:bg-zinc-800"
        aria-label={`Account menu for ${user.username}`}
        data-testid="user-menu-trigger"
      >
        <Avatar username={user.username} />
        <span className="max-w-32 truncate font-medium" data-testid="user-menu-username">
          {user.username}
        </span>
        <PlanBadge plan={user.plan} />
        {amount ? (
          <span className="hidden rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium tabular-nums xl:inline dark:bg-zinc-800" data-testid="user-menu-balance-chip">
            {amount}
          </span>
        ) : null}
        <ChevronDown className="h-3.5 w-3.5 opacity-60" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="menu-content z-50 min-w-56 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <DropdownMenu.Label className="flex items-center gap-3 px-2.5 py-2">
            <Avatar username={user.username} large />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold">{user.username}</p>
              <p className="text-xs text-zinc-500 capitalize dark:text-zinc-400">{user.plan} plan</p>
            </div>
          </DropdownMenu.Label>
          <div className="mx-1 mb-1 flex items-center justify-between rounded-lg bg-zinc-50 px-2.5 py-2 dark:bg-zinc-800/60">
            <span className="text-xs text-zinc-500 dark:text-zinc-400">Balance</span>
            <span className="text-sm font-semibold tabular-nums" data-testid="user-menu-balance">
              {amount ?? '…'}
            </span>
          </div>
          <DropdownMenu.Item asChild>
            <Link to="/settings#buy-credits" className={itemClass}>
              <Plus className="h-4 w-4" aria-hidden />
              Add credits
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild>
            <Link to="/account" className={itemClass}>
              <UserRound className="h-4 w-4" aria-hidden />
              Account
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
          <DropdownMenu.Item onSelect={() => void logout()} className={itemClass}>
            <LogOut className="h-4 w-4" aria-hidden />
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function Avatar({ username, large = false }: { username: string; large?: boolean }) {
  return (
    <span
      aria-hidden
      className={`grid shrink-0 place-items-center rounded-full bg-brand font-semibold text-brand-foreground uppercase ${large ? 'h-9 w-9 text-sm' : 'h-7 w-7 text-xs'}`}
    >
      {username.slice(0, 1)}
    </span>
  );
}

export function PlanBadge({ plan }: { plan: string }) {
  return (
    <span
      className="rounded-full bg-brand/10 px-2 py-0.5 text-xs font-medium text-brand-strong capitalize"
      data-testid="user-menu-plan"
    >
      {plan}
    </span>
  );
}
