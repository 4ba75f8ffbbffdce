import { ComingSoon } from '../components/coming-soon';

/** All Projects; a later change builds the screen. */
export function ProjectsPage() {
  return <ComingSoon title="All Projects" description="Your generated projects, organised in folders." />;
}
