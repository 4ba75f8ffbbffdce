import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ChevronDown, Wallet } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { cn } from '../lib/cn';
import { isMoneyActive, isNavItemActive, moneyItems } from './nav-items';
import { navLinkClass } from './nav-link-class';

/** The header's Money dropdown: Account, Usage & Savings, Pricing, Pack Perks, Cost Lab. */
export function MoneyMenu() {
  const { pathname } = useLocation();
  const active = isMoneyActive(pathname);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className={cn(navLinkClass(active), 'data-[state=open]:bg-zinc-100 dark:data-[state=open]:bg-zinc-800')}
        data-active={active ? 'true' : undefined}
        data-testid="nav-money"
      >
        <Wallet className="h-4 w-4" aria-hidden />
        Money
        <ChevronDown className="h-3.5 w-3.5 opacity-70" aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={8}
          className="menu-content z-50 min-w-52 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          {moneyItems.map((item) => {
            const itemActive = isNavItemActive(pathname, item);
            return (
              <DropdownMenu.Item key={item.to} asChild>
                <Link
                  to={item.to}
                  aria-current={itemActive ? 'page' : undefined}
                  data-testid={item.testId}
                  className={cn(
                    'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800',
                    itemActive ? 'font-medium text-brand-strong' : 'text-zinc-700 dark:text-zinc-300',
                  )}
                >
                  <item.icon className="h-4 w-4" aria-hidden />
                  {item.label}
                </Link>
              </DropdownMenu.Item>
            );
          })}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
