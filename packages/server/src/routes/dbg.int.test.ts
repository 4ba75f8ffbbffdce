import { it } from 'vitest';
import { TestClient } from '../testing/http-client.js';
import { startTestServer } from '../testing/test-server.js';
it('dbg', async () => {
  const server = await startTestServer('pglite', { quiet: false });
  const client = new TestClient(server.url);
  await client.post('/api/auth/register', { username: 'runner', password: 'correct-horse' });
  const res = await fetch(`${server.url}/api/multi-pass-enhancements`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: client.cookieHeader() }, body: JSON.stringify({ prompt: 'A habit tracker', attachments: [] }) });
  console.log((await res.text()).slice(-500));
  await server.dispose();
});
