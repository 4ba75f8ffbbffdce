/**
 * The run's end as one statement, on both databases: every write reads from the fence (the run's
 * row, updated only while this process owns it), so a process that lost the run stores none of
 * them, and rows may reference rows inserted beside them (foreign keys are checked at the end).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conversation } from '../entities/index.js';
import { ProjectService } from '../services/projects/project-service.js';
import { VerificationService } from '../services/runs/verification-service.js';
import { startTestServer, testDatabases, type TestServer } from '../testing/test-server.js';
import { oneStatement, sqlPart } from './one-statement.js';
import { plainSql } from './plain-sql.js';

describe.each(testDatabases())('one statement on %s', (kind) => {
  let server: TestServer;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    userId = randomUUID();
    await plainSql(server.db.orm.em.fork()).execute(`insert into users (id, username, username_key, password_hash, created_at) values (?, ?, ?, 'x', now())`, [
      userId,
      `u${userId.slice(0, 8)}`,
      `u${userId.slice(0, 8)}`,
    ]);
  });
  afterAll(() => server?.dispose());

  const sql = <T>(text: string, params: unknown[] = []) => plainSql(server.db.orm.em.fork()).execute<T>(text, params);

  async function runOwnedBy(instanceId: string): Promise<string> {
    const now = new Date();
    const id = randomUUID();
    await server.db.orm.em.fork().insert(Conversation, {
      id, userId, idea: 'One statement', modelOrder: ['demo-alpha'], cycles: 1, onlyStages: null, maxCostCents: null, attachments: [], projectId: null,
      status: 'running', error: null, checkpoint: null, stages: [], executionMs: 0, instanceId, heartbeatAt: now, attempt: 0, takeovers: 0, createdAt: now, updatedAt: now, completedAt: null,
    });
    return id;
  }

  /** What the run's end writes, gated by a fence that updates the run only while `me` owns it. */
  async function end(runId: string, me: string) {
    const projects = new ProjectService(server.db.orm);
    const em = server.db.orm.em.fork();
    const project = await projects.runResultWrites(em, {
      userId, conversationId: runId, idea: 'One statement', projectId: null, processingMs: 5, costMillicents: 0,
      files: { 'index.html': '<!doctype html><title>x</title>', 'app.js': 'console.log("\u{1F43A}")' },
    });
    const record = { version: 1, verdict: 'unproven' as const, proven: '', notProven: 'nothing ran', coveredFiles: [], checks: [] };
    const proof = new VerificationService(server.db.orm, projects).recordWrite(project.id, record as never);
    const fence = sqlPart(`update conversations set status = 'completed', project_id = ?::uuid where id = ?::uuid and instance_id = ? returning id`, [project.id, runId, me]);
    const { text, params } = oneStatement(['fence', fence], [...project.writes, ['verification', proof]], sqlPart('select count(*)::int as owned from fence'));
    const [row] = await plainSql(em).execute<Array<{ owned: number }>>(text, params);
    return { owned: Number(row!.owned), projectId: project.id };
  }

  it('stores the project, its files and its record with the run completed, all referencing each other', async () => {
    const runId = await runOwnedBy('me');
    const { owned, projectId } = await end(runId, 'me');
    expect(owned).toBe(1);
    expect(await sql('select status, project_id from conversations where id = ?', [runId])).toEqual([{ status: 'completed', project_id: projectId }]);
    expect(await sql('select path, content, size from project_files where project_id = ? order by path', [projectId])).toEqual([
      { path: 'app.js', content: 'console.log("\u{1F43A}")', size: 19 },
      { path: 'index.html', content: '<!doctype html><title>x</title>', size: 31 },
    ]);
    expect(await sql('select file_count, version from projects where id = ?', [projectId])).toEqual([{ file_count: 2, version: 1 }]);
    expect(await sql('select verdict from project_verifications where project_id = ?', [projectId])).toEqual([{ verdict: 'unproven' }]);
  });

  it('stores nothing at all when another process owns the run now', async () => {
    const runId = await runOwnedBy('another-server');
    const { owned, projectId } = await end(runId, 'me');
    expect(owned).toBe(0);
    expect(await sql('select status, project_id from conversations where id = ?', [runId])).toEqual([{ status: 'running', project_id: null }]);
    for (const table of ['projects where id', 'project_files where project_id', 'project_verifications where project_id']) {
      expect(await sql(`select 1 from ${table} = ?`, [projectId]), table).toEqual([]);
    }
  });
});
