import { ComingSoon } from '../components/coming-soon';

/** Settings; a later change builds the screen. */
export function SettingsPage() {
  return <ComingSoon title="Settings" description="Appearance, brand colour, credits and usage." />;
}
