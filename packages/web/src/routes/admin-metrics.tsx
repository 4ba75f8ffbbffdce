import { BarChart3, Lock } from 'lucide-react';
import { useState } from 'react';
import { adminErrorMessage, useAdminMetrics } from '../api/admin';
import { AdminDashboard } from '../components/admin-dashboard';
import { AdminLogin } from '../components/admin-login';
import { Button } from '../components/button';
import { PageHeader } from '../components/section-card';
import { LoadingBlock } from '../components/sign-in-prompt';

/**
 * Admin Metrics (/admin/metrics, companion §2, §4 Admin): locked until a secret is typed, then the
 * dashboard. The secret is kept in this component's state only: a reload locks the page again and
 * nothing of it reaches storage.
 */
export function AdminMetricsPage() {
  const [secret, setSecret] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const metrics = useAdminMetrics(secret, attempt);
  const locked = secret === null || metrics.isError || !metrics.data;

  const lock = () => {
    setSecret(null);
    setAttempt((n) => n + 1);
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <PageHeader
        icon={<BarChart3 className="h-7 w-7" aria-hidden />}
        title="Admin Metrics"
        description="Revenue, costs and profit from the ledger and the engine usage records."
      >
        {!locked ? (
          <div className="flex justify-end">
            <Button variant="outline" size="sm" onClick={lock} data-testid="admin-lock">
              <Lock className="h-4 w-4" aria-hidden />
              Lock
            </Button>
          </div>
        ) : null}
      </PageHeader>
      {metrics.data && secret !== null ? (
        <AdminDashboard data={metrics.data} />
      ) : secret !== null && metrics.isPending ? (
        <LoadingBlock rows={3} label="Loading the metrics" />
      ) : (
        <AdminLogin
          error={metrics.isError ? adminErrorMessage(metrics.error) : null}
          onSubmit={(typed) => {
            setSecret(typed);
            setAttempt((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}
