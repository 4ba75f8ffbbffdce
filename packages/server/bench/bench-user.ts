/** Registers a user through the real API and answers its session cookie, as a `cookie` header value. */
export function signUp(url: string, username = 'bench'): Promise<string> {
  return sessionCookie(url, '/api/auth/register', 201, username);
}

/** Signs `username` (registered by {@link signUp}) in again: another session of the same user, as another device or tab has. */
export function signIn(url: string, username = 'bench'): Promise<string> {
  return sessionCookie(url, '/api/auth/login', 200, username);
}

async function sessionCookie(url: string, path: string, status: number, username: string): Promise<string> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench-password' }),
  });
  if (res.status !== status) throw new Error(`POST ${path} for ${username} answered ${res.status}: ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
