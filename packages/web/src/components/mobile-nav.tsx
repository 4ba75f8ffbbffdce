import type { PublicUser } from '@wolfpack/core';
import { LogIn, LogOut, UserPlus } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { formatCents } from '@wolfpack/core';
import { logout, useBalance } from '../api/queries';
import { cn } from '../lib/cn';
import { buttonClass } from './button';
import { buildItem, isNavItemActive, moneyItems, projectsItem, trailingItems, type NavItem } from './nav-items';
import { navLinkClass } from './nav-link-class';
import { PlanBadge } from './user-menu';

export interface MobileNavProps {
  user: PublicUser | null;
  /** Called when a link is followed, so the panel closes. */
  onNavigate: () => void;
}

/** The small-screen menu panel: every header link in one column plus the account actions. */
export function MobileNav({ user, onNavigate }: MobileNavProps) {
  const { pathname } = useLocation();
  const balance = useBalance(user !== null);
  const link = (item: NavItem) => {
    const active = isNavItemActive(pathname, item);
    return (
      <Link
        key={item.to}
        to={item.to}
        onClick={onNavigate}
        aria-current={active ? 'page' : undefined}
        className={cn(navLinkClass(active), 'w-full justify-start py-2.5')}
      >
        <item.icon className="h-4 w-4" aria-hidden />
        {item.label}
      </Link>
    );
  };
  return (
    <nav
      id="mobile-nav"
      aria-label="Mobile"
      className="border-t border-zinc-200 bg-white px-4 pt-2 pb-4 lg:hidden dark:border-zinc-800 dark:bg-zinc-950"
    >
      <div className="flex flex-col gap-0.5">
        {link(buildItem)}
        {link(projectsItem)}
        <p className="px-3 pt-3 pb-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">Money</p>
        {moneyItems.map(link)}
        <div className="my-2 h-px bg-zinc-200 dark:bg-zinc-800" />
        {trailingItems.map(link)}
      </div>
      <div className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800">
        {user ? (
          <div className="flex items-center justify-between gap-3">
            <div className="flex min-w-0 items-center gap-2 text-sm">
              <span className="truncate font-medium">{user.username}</span>
              <PlanBadge plan={user.plan} />
              {balance.data ? (
                <span className="text-xs font-medium text-zinc-500 tabular-nums dark:text-zinc-400" data-testid="mobile-balance">
                  {formatCents(balance.data.balanceCents)}
                </span>
              ) : null}
            </div>
            <button type="button" onClick={() => void logout()} className={buttonClass('outline', 'sm')}>
              <LogOut className="h-4 w-4" aria-hidden />
              Logout
            </button>
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-2">
            <Link to="/login" onClick={onNavigate} className={buttonClass('outline', 'md')}>
              <LogIn className="h-4 w-4" aria-hidden />
              Login
            </Link>
            <Link to="/register" onClick={onNavigate} className={buttonClass('primary', 'md')}>
              <UserPlus className="h-4 w-4" aria-hidden />
              Sign Up
            </Link>
          </div>
        )}
      </div>
    </nav>
  );
}
