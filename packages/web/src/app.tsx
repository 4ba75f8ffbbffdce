/**
 * The route table (spec core §2). Every screen except the shell and the not-found card is loaded
 * on demand, so the first visit downloads only the screen it shows.
 */
import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { AppLayout } from './components/app-layout';
import { RouteError } from './components/route-error';
import { NotFoundPage } from './routes/not-found';

/** React.lazy for a module whose screen is a named export. */
function screen<K extends string, M extends Record<K, ComponentType>>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const HomePage = screen(() => import('./routes/home'), 'HomePage');
const LoginPage = screen(() => import('./routes/login'), 'LoginPage');
const RegisterPage = screen(() => import('./routes/register'), 'RegisterPage');
const HowItWorksPage = screen(() => import('./routes/how-it-works'), 'HowItWorksPage');
const UsageMetricsPage = screen(() => import('./routes/usage-metrics'), 'UsageMetricsPage');
const AccountPage = screen(() => import('./routes/account'), 'AccountPage');
const ShowcasePage = screen(() => import('./routes/showcase'), 'ShowcasePage');
const ShowcaseDetailPage = screen(() => import('./routes/showcase-detail'), 'ShowcaseDetailPage');
const OutdoorsPage = screen(() => import('./routes/outdoors'), 'OutdoorsPage');
const PricingPage = screen(() => import('./routes/pricing'), 'PricingPage');
const NjinPage = screen(() => import('./routes/njin'), 'NjinPage');
const MyCapsulesPage = screen(() => import('./routes/my-capsules'), 'MyCapsulesPage');
const DiscoverPage = screen(() => import('./routes/discover'), 'DiscoverPage');
const CapsulePage = screen(() => import('./routes/capsule'), 'CapsulePage');
const ReferralsPage = screen(() => import('./routes/referrals'), 'ReferralsPage');
const ProjectsPage = screen(() => import('./routes/projects'), 'ProjectsPage');
const ProjectDetailPage = screen(() => import('./routes/project-detail'), 'ProjectDetailPage');
const SettingsPage = screen(() => import('./routes/settings'), 'SettingsPage');
const AdminMetricsPage = screen(() => import('./routes/admin-metrics'), 'AdminMetricsPage');
const LabPage = screen(() => import('./routes/lab'), 'LabPage');

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        // A pathless boundary inside the layout keeps the header visible when a screen fails.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'register', element: <RegisterPage /> },
          { path: 'how-it-works', element: <HowItWorksPage /> },
          { path: 'usage-metrics', element: <UsageMetricsPage /> },
          { path: 'account', element: <AccountPage /> },
          { path: 'showcase', element: <ShowcasePage /> },
          { path: 'showcase/:id', element: <ShowcaseDetailPage /> },
          { path: 'outdoors', element: <OutdoorsPage /> },
          { path: 'pricing', element: <PricingPage /> },
          { path: 'njin', element: <NjinPage /> },
          { path: 'my-capsules', element: <MyCapsulesPage /> },
          { path: 'discover', element: <DiscoverPage /> },
          { path: 'capsules/:slug', element: <CapsulePage /> },
          { path: 'referrals', element: <ReferralsPage /> },
          { path: 'projects', element: <ProjectsPage /> },
          { path: 'projects/:id', element: <ProjectDetailPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'admin/metrics', element: <AdminMetricsPage /> },
          { path: 'lab', element: <LabPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

const router = createBrowserRouter(routes);

/** The routed application; providers live in main.tsx. */
export function App() {
  return <RouterProvider router={router} />;
}
