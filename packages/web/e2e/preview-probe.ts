/**
 * What a hostile script in a previewed page tries against Wolfpack, as JavaScript statements for
 * the page's own script: read the cookies and storage, and call the API with the user's session
 * (a read and a sign-out). Each result lands in `out` as 'read:…', 'status:…' or 'blocked:…'.
 * The static-site preview (preview.spec.ts) and the HTTP-server preview (preview-server.spec.ts)
 * run the same checks, so both isolations are held to one standard.
 */
export const ISOLATION_PROBE = `  const out = { origin: self.origin };
  try { out.cookie = 'read:' + document.cookie; } catch (e) { out.cookie = 'blocked:' + e.name; }
  try { out.storage = 'read:' + localStorage.length; } catch (e) { out.storage = 'blocked:' + e.name; }
  try {
    const r = await fetch('/api/auth/me', { credentials: 'include' });
    out.me = 'status:' + r.status + ':' + (await r.text());
  } catch (e) { out.me = 'blocked:' + e.name; }
  try {
    const r = await fetch('/api/auth/logout', { method: 'POST', credentials: 'include' });
    out.logout = 'status:' + r.status;
  } catch (e) { out.logout = 'blocked:' + e.name; }`;
