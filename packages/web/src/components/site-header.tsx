import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useMe } from '../api/queries';
import { buttonClass } from './button';
import { BrandLogo } from './brand-logo';
import { MobileNav } from './mobile-nav';
import { MoneyMenu } from './money-menu';
import { buildItem, isNavItemActive, projectsItem, trailingItems, type NavItem } from './nav-items';
import { navLinkClass } from './nav-link-class';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';

function HeaderLink({ item, pathname }: { item: NavItem; pathname: string }) {
  const active = isNavItemActive(pathname, item);
  return (
    <Link
      to={item.to}
      aria-current={active ? 'page' : undefined}
      data-testid={item.testId}
      className={navLinkClass(active)}
    >
      <item.icon className="h-4 w-4" aria-hidden />
      {item.label}
    </Link>
  );
}

/** The header on every page (spec core §2): navigation, theme switch, and sign-in or user menu. */
export function SiteHeader() {
  const { pathname } = useLocation();
  const { user, isPending } = useMe();
  const [mobileOpen, setMobileOpen] = useState(false);

  // A route change (including back/forward) closes the mobile panel.
  useEffect(() => setMobileOpen(false), [pathname]);

  return (
    <header className="sticky top-0 z-40 border-b border-zinc-200/80 bg-white/80 backdrop-blur-md dark:border-zinc-800/80 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <BrandLogo />
        <nav aria-label="Main" className="ml-4 hidden items-center gap-0.5 lg:flex">
          <HeaderLink item={buildItem} pathname={pathname} />
          <HeaderLink item={projectsItem} pathname={pathname} />
          <MoneyMenu />
          {trailingItems.map((item) => (
            <HeaderLink key={item.to} item={item} pathname={pathname} />
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <div className="hidden items-center gap-2 lg:flex" data-testid="auth-area">
            {isPending ? (
              <span className="h-8 w-36 animate-pulse rounded-full bg-zinc-100 dark:bg-zinc-800" aria-hidden />
            ) : user ? (
              <UserMenu user={user} />
            ) : (
              <>
                <Link to="/login" className={buttonClass('ghost', 'sm')} data-testid="link-login">
                  Login
                </Link>
                <Link to="/register" className={buttonClass('primary', 'sm')} data-testid="link-register">
                  Sign Up
                </Link>
              </>
            )}
          </div>
          <button
            type="button"
            className={buttonClass('ghost', 'icon', 'lg:hidden')}
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={mobileOpen}
            aria-controls="mobile-nav"
            onClick={() => setMobileOpen((open) => !open)}
          >
            {mobileOpen ? <X className="h-5 w-5" aria-hidden /> : <Menu className="h-5 w-5" aria-hidden />}
          </button>
        </div>
      </div>
      {mobileOpen ? <MobileNav user={user} onNavigate={() => setMobileOpen(false)} /> : null}
    </header>
  );
}
