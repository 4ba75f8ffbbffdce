/** Registers a user through the real API and answers its session cookie, as a `cookie` header value. */
export async function signUp(url: string, username = 'bench'): Promise<string> {
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench-password' }),
  });
  if (res.status !== 201) throw new Error(`registering ${username} answered ${res.status}: ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Signs `username` (registered by {@link signUp}) in again: another session of the same user, as another device or tab has. */
export async function signIn(url: string, username = 'bench'): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'bench-password' }),
  });
  if (res.status !== 200) throw new Error(`signing ${username} in answered ${res.status}: ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
