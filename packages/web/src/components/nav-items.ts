/** The header's links (spec core §2 shared header) and when each counts as active. */
import {
  BadgeDollarSign,
  ChartLine,
  CircleHelp,
  Compass,
  FlaskConical,
  FolderKanban,
  Gift,
  Hammer,
  Settings,
  UserRound,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Other path prefixes that also make this item active. */
  alsoActiveOn?: readonly string[];
  testId: string;
}

/** True when `pathname` is `base` itself or lies below it ('/projects' matches '/projects/7'). */
export function pathMatches(pathname: string, base: string): boolean {
  if (base === '/') return pathname === '/';
  return pathname === base || pathname.startsWith(`${base}/`);
}

export function isNavItemActive(pathname: string, item: Pick<NavItem, 'to' | 'alsoActiveOn'>): boolean {
  return [item.to, ...(item.alsoActiveOn ?? [])].some((base) => pathMatches(pathname, base));
}

export const buildItem: NavItem = { label: 'Build', to: '/', icon: Hammer, testId: 'nav-build' };
export const projectsItem: NavItem = { label: 'Projects', to: '/projects', icon: FolderKanban, testId: 'nav-projects' };

/** The Money dropdown's entries. */
export const moneyItems: readonly NavItem[] = [
  { label: 'Account', to: '/account', icon: UserRound, testId: 'nav-account' },
  { label: 'Usage & Savings', to: '/usage-metrics', icon: ChartLine, testId: 'nav-usage' },
  { label: 'Pricing', to: '/pricing', icon: BadgeDollarSign, testId: 'nav-pricing' },
  { label: 'Pack Perks', to: '/referrals', icon: Gift, testId: 'nav-referrals' },
  { label: 'Cost Lab', to: '/lab', icon: FlaskConical, testId: 'nav-lab' },
];

/** Items after the Money dropdown. Outdoors also covers the showcase and discovery pages. */
export const trailingItems: readonly NavItem[] = [
  {
    label: 'Outdoors',
    to: '/outdoors',
    icon: Compass,
    alsoActiveOn: ['/showcase', '/discover'],
    testId: 'nav-outdoors',
  },
  { label: 'Help', to: '/how-it-works', icon: CircleHelp, testId: 'nav-help' },
  { label: 'Settings', to: '/settings', icon: Settings, testId: 'nav-settings' },
];

export function isMoneyActive(pathname: string): boolean {
  return moneyItems.some((item) => isNavItemActive(pathname, item));
}
