/** The Setup tab's snippet: a curl call and a TypeScript function for POST /api/njin/iterate. */
export function njinSnippet(apiKey: string, origin: string): string {
  const url = `${origin.replace(/\/+$/, '')}/api/njin/iterate`;
  return [
    '# Ask njin for a verified patch (curl)',
    '',
    '```sh',
    `curl -sS -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${apiKey}' \\`,
    "  -H 'Content-Type: application/json' \\",
    `  -d '{"instruction": "Add input validation to parse()", "files": {"src/parse.ts": "export function parse(s: string) { return JSON.parse(s); }"}}'`,
    '```',
    '',
    '# TypeScript (Node 18+ or a browser)',
    '',
    '```ts',
    `const NJIN_API_KEY = process.env.NJIN_API_KEY ?? '${apiKey}';`,
    '',
    '/** Sends files and an instruction; resolves to the unified diff of the winning, verified patch. */',
    'export async function iterate(files: Record<string, string>, instruction: string): Promise<string> {',
    `  const res = await fetch('${url}', {`,
    "    method: 'POST',",
    "    headers: { Authorization: `Bearer ${NJIN_API_KEY}`, 'Content-Type': 'application/json' },",
    "    body: JSON.stringify({ files, instruction, mode: 'auto' }),",
    '  });',
    '  const body = await res.json();',
    '  if (!res.ok) throw new Error(body.error ?? `Request failed with status ${res.status}`);',
    '  return body.patch;',
    '}',
    '```',
    '',
  ].join('\n');
}
