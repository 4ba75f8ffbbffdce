import { ComingSoon } from '../components/coming-soon';

/** Help; a later change builds the screen. */
export function HowItWorksPage() {
  return <ComingSoon title="Help" description="How Wolfpack turns an idea into a project: the staged engines, enhancement and savings, explained step by step." />;
}
