import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync, type Zippable } from 'fflate';

interface FakeCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

export interface FakeRepo {
  owner: string;
  name: string;
  private: boolean;
  description: string;
  defaultBranch: string;
  refs: Map<string, string>;
  blobs: Map<string, string>;
  trees: Map<string, Array<{ path: string; sha: string }>>;
  commits: Map<string, FakeCommit>;
}

export interface FakeGithubOptions {
  /** token -> login. */
  tokens?: Record<string, string>;
  /** The X-OAuth-Scopes header per token (omitted: a fine-grained token). */
  scopes?: Record<string, string>;
  /** Answer every call with a rate-limit 403 after this many calls. */
  rateLimitAfter?: number;
  /**
   * Create repositories empty even when asked for `auto_init`, as GitHub does for a moment after
   * creation (and some Enterprise versions always): the git data API then answers 409.
   */
  ignoreAutoInit?: boolean;
}

/** A scripted failure for the next matching request(s); see `failNext`. */
export interface FakeGithubFailure {
  method: string;
  /** Matched against the decoded path, e.g. /\/git\/blobs$/. */
  path: RegExp;
  status: number;
  /** JSON body, or a string sent as text/html (GitHub's 5xx pages are HTML). */
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail. @default 1 */
  times?: number;
  /**
   * Do the work first, then answer the failure: the request took effect on GitHub, but the
   * client cannot know (a gateway timing out in front of a slow but successful call).
   */
  afterEffect?: boolean;
}

/**
 * A local GitHub REST API, as much as publishing needs, and as unkind as the real one: the git
 * data API refuses an empty repository (409 "Git Repository is empty."), a taken name is a 422
 * with GitHub's wording, a bad token a 401, an exhausted rate limit a 403 with x-ratelimit-*.
 */
export async function startFakeGithub(options: FakeGithubOptions = {}) {
  const tokens = options.tokens ?? { 'ghp_good': 'octocat' };
  const repos = new Map<string, FakeRepo>();
  const requests: Array<{ method: string; path: string; auth: string; status?: number }> = [];
  const failures: FakeGithubFailure[] = [];
  /** One-time download tokens of zipball redirects, as codeload.github.com's `?token=`: token -> the zip. */
  const downloads = new Map<string, Uint8Array>();
  let calls = 0;

  const sha = (text: string) => createHash('sha1').update(text).digest('hex');
  const sendRaw = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const html = typeof body === 'string';
    res.writeHead(status, { 'content-type': html ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8', ...headers });
    res.end(html ? body : JSON.stringify(body));
  };
  const commitOn = (repo: FakeRepo, files: Array<{ path: string; content: string }>, message: string, parents: string[]) => {
    const entries = files.map((f) => {
      const s = sha(`blob ${f.content}`);
      repo.blobs.set(s, Buffer.from(f.content).toString('base64'));
      return { path: f.path, sha: s };
    });
    const treeSha = sha(JSON.stringify(entries));
    repo.trees.set(treeSha, entries);
    const commit = { sha: sha(`${treeSha}${parents.join()}${message}${Math.random()}`), tree: treeSha, parents, message };
    repo.commits.set(commit.sha, commit);
    return commit;
  };
  const repoJson = (r: FakeRepo, base: string) => ({
    id: 1,
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    private: r.private,
    description: r.description,
    default_branch: r.defaultBranch,
    html_url: `${base}/${r.owner}/${r.name}`.replace('/api/v3', ''),
    owner: { login: r.owner },
  });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      calls += 1;
      const url = new URL(req.url ?? '/', 'http://fake');
      // Octokit sends `heads/main` as `heads%2Fmain`, as GitHub accepts.
      const path = decodeURIComponent(url.pathname);
      const auth = req.headers.authorization ?? '';
      const record: (typeof requests)[number] = { method: req.method ?? '', path, auth };
      requests.push(record);
      const failure = failures.find((f) => f.method === req.method && f.path.test(path) && (f.times ?? 1) > 0);
      if (failure) failure.times = (failure.times ?? 1) - 1;
      // Every answer goes through here, so a scripted failure can replace it (after the effect, or instead).
      const send = (r: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
        if (failure) {
          record.status = failure.status;
          return sendRaw(r, failure.status, failure.body ?? { message: 'Server Error' }, failure.headers);
        }
        record.status = status;
        return sendRaw(r, status, body, headers);
      };
      if (failure && !failure.afterEffect) return send(res, 0, undefined);
      // codeload.github.com: the zipball's redirect target, authorised by the token in its URL alone.
      if (req.method === 'GET' && path.startsWith('/_codeload/')) {
        const zip = downloads.get(url.searchParams.get('token') ?? '');
        if (!zip) return send(res, 404, 'Not Found');
        downloads.delete(url.searchParams.get('token')!);
        record.status = 200;
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
        return res.end(zip);
      }
      const token = /^(?:token|Bearer)\s+(.+)$/i.exec(auth)?.[1] ?? '';
      const login = tokens[token];
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      if (options.rateLimitAfter !== undefined && calls > options.rateLimitAfter) {
        const reset = String(Math.floor(Date.now() / 1000) + 600);
        return send(res, 403, { message: 'API rate limit exceeded for user.' }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset });
      }
      if (!login) return send(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      const scopeHeader = options.scopes?.[token];
      const scoped: Record<string, string> = scopeHeader === undefined ? {} : { 'x-oauth-scopes': scopeHeader };
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};

      if (req.method === 'GET' && path === '/user') return send(res, 200, { login, id: 1 }, scoped);
      if (req.method === 'POST' && path === '/user/repos') {
        const name = String(body.name);
        const key = `${login}/${name}`.toLowerCase();
        if (repos.has(key)) {
          return send(res, 422, {
            message: 'Repository creation failed.',
            errors: [{ resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' }],
          });
        }
        const repo: FakeRepo = {
          owner: login,
          name,
          private: Boolean(body.private),
          description: String(body.description ?? ''),
          defaultBranch: 'main',
          refs: new Map(),
          blobs: new Map(),
          trees: new Map(),
          commits: new Map(),
        };
        if (body.auto_init && !options.ignoreAutoInit) repo.refs.set('main', commitOn(repo, [{ path: 'README.md', content: `# ${name}\n` }], 'Initial commit', []).sha);
        repos.set(key, repo);
        return send(res, 201, repoJson(repo, base), scoped);
      }
      const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
      const repo = m ? repos.get(`${m[1]}/${m[2]}`.toLowerCase()) : undefined;
      if (!m || !repo) return send(res, 404, { message: 'Not Found' });
      const rest = m[3] ?? '';
      if (req.method === 'GET' && rest === '') return send(res, 200, repoJson(repo, base));
      if (req.method === 'PUT' && rest.startsWith('/contents/')) {
        const filePath = decodeURIComponent(rest.slice('/contents/'.length));
        const branch = String(body.branch ?? repo.defaultBranch);
        const head = repo.refs.get(branch);
        const c = commitOn(repo, [{ path: filePath, content: Buffer.from(String(body.content), 'base64').toString() }], String(body.message), head ? [head] : []);
        repo.refs.set(branch, c.sha);
        return send(res, 201, { commit: { sha: c.sha } });
      }
      // An archive of a branch, tag or commit (absent: the default branch) is a redirect to codeload.
      const zipball = /^\/zipball(?:\/(.+))?$/.exec(rest);
      if (req.method === 'GET' && zipball) {
        const wanted = zipball[1] ?? repo.defaultBranch;
        const commitSha = repo.refs.get(wanted) ?? (wanted.length >= 7 ? [...repo.commits.keys()].find((c) => c.startsWith(wanted)) : undefined);
        const commit = commitSha === undefined ? undefined : repo.commits.get(commitSha);
        if (!commit) return send(res, 404, { message: 'Not Found' });
        const top = `${repo.owner}-${repo.name}-${commit.sha.slice(0, 7)}/`;
        const entries: Zippable = { [top]: new Uint8Array() };
        for (const e of repo.trees.get(commit.tree) ?? []) entries[top + e.path] = Buffer.from(repo.blobs.get(e.sha)!, 'base64');
        const download = randomBytes(12).toString('hex');
        downloads.set(download, zipSync(entries));
        return send(res, 302, '', { location: `${base}/_codeload/${repo.owner}/${repo.name}/legacy.zip/${encodeURIComponent(wanted)}?token=${download}` });
      }
      // GitHub's git data API does not work on a repository without commits.
      if (rest.startsWith('/git/') && repo.refs.size === 0) return send(res, 409, { message: 'Git Repository is empty.' });
      const ref = /^\/git\/(?:ref|refs)\/heads\/(.+)$/.exec(rest);
      if (req.method === 'GET' && ref) {
        const head = repo.refs.get(ref[1]!);
        return head ? send(res, 200, { ref: `refs/heads/${ref[1]}`, object: { sha: head, type: 'commit' } }) : send(res, 404, { message: 'Not Found' });
      }
      const commitPath = /^\/git\/commits\/([0-9a-f]+)$/.exec(rest);
      if (req.method === 'GET' && commitPath) {
        const c = repo.commits.get(commitPath[1]!);
        return c ? send(res, 200, { sha: c.sha, tree: { sha: c.tree }, parents: c.parents.map((p) => ({ sha: p })), message: c.message }) : send(res, 404, { message: 'Not Found' });
      }
      const treePath = /^\/git\/trees\/([0-9a-f]+)$/.exec(rest);
      if (req.method === 'GET' && treePath) {
        const t = repo.trees.get(treePath[1]!);
        return t ? send(res, 200, { sha: treePath[1], tree: t.map((e) => ({ path: e.path, mode: '100644', type: 'blob', sha: e.sha })), truncated: false }) : send(res, 404, { message: 'Not Found' });
      }
      if (req.method === 'POST' && rest === '/git/blobs') {
        const s = sha(`blob ${Buffer.from(String(body.content), 'base64').toString()}`);
        repo.blobs.set(s, String(body.content));
        return send(res, 201, { sha: s });
      }
      if (req.method === 'POST' && rest === '/git/trees') {
        const entries = (body.tree as Array<{ path: string; sha: string }>).map((e) => ({ path: e.path, sha: e.sha }));
        if (entries.some((e) => !repo.blobs.has(e.sha))) return send(res, 422, { message: 'Invalid tree info' });
        const s = sha(JSON.stringify(entries));
        repo.trees.set(s, entries);
        return send(res, 201, { sha: s });
      }
      if (req.method === 'POST' && rest === '/git/commits') {
        const c = { sha: sha(`${String(body.tree)}${Math.random()}`), tree: String(body.tree), parents: body.parents as string[], message: String(body.message) };
        repo.commits.set(c.sha, c);
        return send(res, 201, { sha: c.sha });
      }
      if (req.method === 'PATCH' && ref) {
        const head = repo.refs.get(ref[1]!);
        const commit = repo.commits.get(String(body.sha));
        if (!commit) return send(res, 422, { message: 'Object does not exist' });
        if (!body.force && head && !descendsFrom(repo, commit, head)) return send(res, 422, { message: 'Update is not a fast forward' });
        repo.refs.set(ref[1]!, commit.sha);
        return send(res, 200, { ref: `refs/heads/${ref[1]}`, object: { sha: commit.sha } });
      }
      return send(res, 404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  /** A branch (or tag) `branch` of the repository with `files`, as one commit; its sha. */
  const addBranch = (owner: string, name: string, branch: string, files: Record<string, string>): string => {
    const repo = repos.get(`${owner}/${name}`.toLowerCase())!;
    const commit = commitOn(repo, Object.entries(files).map(([path, content]) => ({ path, content })), `Files of ${branch}`, []);
    repo.refs.set(branch, commit.sha);
    return commit.sha;
  };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    repos,
    requests,
    /** Makes the next matching request(s) fail as described. */
    failNext(failure: FakeGithubFailure) {
      failures.push({ ...failure });
    },
    /** A repository with `files` on its default branch as one commit (GitHub has it without Wolfpack). */
    addRepo(owner: string, name: string, files: Record<string, string>, options: { defaultBranch?: string; private?: boolean } = {}): FakeRepo {
      const repo: FakeRepo = {
        owner,
        name,
        private: options.private ?? false,
        description: '',
        defaultBranch: options.defaultBranch ?? 'main',
        refs: new Map(),
        blobs: new Map(),
        trees: new Map(),
        commits: new Map(),
      };
      repos.set(`${owner}/${name}`.toLowerCase(), repo);
      addBranch(owner, name, repo.defaultBranch, files);
      return repo;
    },
    addBranch,
    /** The files of the branch head, as path -> content. */
    filesAt(owner: string, name: string, branch = 'main'): Record<string, string> {
      const repo = repos.get(`${owner}/${name}`.toLowerCase())!;
      const commit = repo.commits.get(repo.refs.get(branch)!)!;
      return Object.fromEntries(repo.trees.get(commit.tree)!.map((e) => [e.path, Buffer.from(repo.blobs.get(e.sha)!, 'base64').toString()]));
    },
    head(owner: string, name: string, branch = 'main') {
      const repo = repos.get(`${owner}/${name}`.toLowerCase())!;
      return repo.commits.get(repo.refs.get(branch)!)!;
    },
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

export type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;

/** Whether `ancestor` is among the commit's ancestors, as GitHub checks a fast forward (several commits at once included). */
function descendsFrom(repo: FakeRepo, commit: FakeCommit, ancestor: string): boolean {
  const seen = new Set<string>();
  const queue = [...commit.parents];
  while (queue.length > 0) {
    const sha = queue.pop()!;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    queue.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  return false;
}
