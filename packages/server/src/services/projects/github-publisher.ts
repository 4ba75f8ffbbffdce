import { createHash } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import { AppError, type PublishReply, type PublishRequest } from '@wolfpack/core';
import type { ProjectService } from './project-service.js';
import { assertVersion, type VersionReader } from './version-reader.js';

/** Blobs uploaded at once: fast for big projects, gentle with GitHub's secondary rate limits. */
const BLOB_CONCURRENCY = 6;

/** Commits a publish of a project's history makes at most (each costs GitHub a tree, a commit and new blobs). */
export const MAX_HISTORY_COMMITS = 100;

type OwnedProject = Awaited<ReturnType<ProjectService['getOwned']>>;

/** One commit of a publish: its files, read when its turn comes, and its message. */
interface Snapshot {
  files: () => Promise<Record<string, string>>;
  /** `republish`: the repository is the one the project was published to before. */
  message: (republish: boolean) => string;
}

export interface GithubPublisherOptions {
  /** REST API base URL (GitHub Enterprise: https://HOST/api/v3; tests: a local fake). */
  baseUrl: string;
}

/**
 * Publishes a project to GitHub as one commit through the git data API (blobs, tree, commit,
 * ref). A new repository is created with an initial commit, because GitHub's git data API
 * refuses empty repositories; publishing the same project again adds a commit on top.
 */
export class GithubPublisher {
  constructor(
    private readonly projects: ProjectService,
    private readonly options: GithubPublisherOptions,
    /** Where earlier versions and their sources are read (publishing the current files needs only `projects`). */
    private readonly versions?: VersionReader,
  ) {}

  client(token: string): Octokit {
    // Octokit's own logging would print every expected 404/409 (an empty repository) to the console;
    // every failure is turned into a sentence by githubError instead.
    const quiet = () => {};
    return new Octokit({
      auth: token,
      baseUrl: this.options.baseUrl,
      userAgent: 'wolfpack',
      request: { retries: 0 },
      log: { debug: quiet, info: quiet, warn: quiet, error: quiet },
    });
  }

  /** The token's account, checking it works; refuses tokens GitHub rejects with a sentence. */
  async whoAmI(token: string): Promise<{ login: string; scopes: string[] | null }> {
    try {
      const res = await this.client(token).rest.users.getAuthenticated();
      const header = res.headers['x-oauth-scopes'];
      // Fine-grained tokens send no scopes header: their permissions show only when used.
      const scopes = typeof header === 'string' ? header.split(',').map((s) => s.trim()).filter(Boolean) : null;
      return { login: res.data.login, scopes };
    } catch (error) {
      throw githubError(error, this.options.baseUrl);
    }
  }

  /**
   * Publishes the project's current files, or those of `request.version`, as one commit; with
   * `request.history`, every version up to that one as a commit each, oldest first, into a new
   * repository. `tokenOf` is asked only once the project is known to be the user's and the version
   * to exist: nobody learns about a project that is not theirs.
   */
  async publish(userId: string, projectId: string, request: PublishRequest, tokenOf: () => Promise<string>): Promise<PublishReply> {
    const project = await this.projects.getOwned(userId, projectId);
    const snapshots = request.history ? await this.history(userId, project, request.version) : [await this.snapshot(userId, project, request.version)];
    const token = await tokenOf();
    const { login, scopes } = await this.whoAmI(token);
    if (scopes && !scopes.includes('repo') && (request.isPrivate || !scopes.includes('public_repo'))) {
      throw new AppError(
        'FORBIDDEN',
        `The GitHub token lacks the ${request.isPrivate ? 'repo' : 'public_repo (or repo)'} scope. Create a token with that scope and save it in Settings.`,
      );
    }
    const octokit = this.client(token);
    const owner = login;
    const repo = request.repoName;
    try {
      const republish = project.githubRepo?.toLowerCase() === `${owner}/${repo}`.toLowerCase();
      if (republish && request.history) {
        throw new AppError(
          'CONFLICT',
          `This project is already published to ${project.githubRepo}: its history goes only into a new repository. Publish without history to add the files on top, or choose another repository name.`,
        );
      }
      // Republishing goes on top of what is there; a repository deleted on GitHub meanwhile is made again.
      const target = (republish ? await this.existing(octokit, owner, repo) : null) ?? (await this.create(octokit, owner, repo, request));
      let parent = target.head ?? (await this.headOf(octokit, owner, repo, target.branch));
      // Blobs by content: a file a version did not change is not uploaded again.
      const uploaded = new Map<string, string>();
      for (const snapshot of snapshots) {
        const files = await snapshot.files();
        const shas = await this.upload(octokit, owner, repo, files, uploaded);
        // A full tree (no base_tree): the commit is exactly the project, files removed since are gone.
        // Only a README that an unfinished first publish left behind stays, when the project has none.
        const tree = Object.keys(files).map((path, i) => ({ path, mode: '100644' as const, type: 'blob' as const, sha: shas[i]! }));
        if (target.keep && !(target.keep.path in files)) tree.push({ path: target.keep.path, mode: '100644', type: 'blob', sha: target.keep.sha });
        const created = await octokit.rest.git.createTree({ owner, repo, tree });
        parent = (await octokit.rest.git.createCommit({ owner, repo, message: snapshot.message(republish), tree: created.data.sha, parents: [parent] })).data.sha;
      }
      await octokit.rest.git.updateRef({ owner, repo, ref: `heads/${target.branch}`, sha: parent, force: false });
      // Only now, with the files on GitHub, does the project point at the repository.
      await this.projects.setGithubRepo(userId, projectId, target.fullName);
      return { repoUrl: target.htmlUrl, replitUrl: `https://replit.com/github/${target.fullName}` };
    } catch (error) {
      throw githubError(error, this.options.baseUrl);
    }
  }

  /** The current files, or those of `version` (a 404 that says so when the project has no such version). */
  private async snapshot(userId: string, project: OwnedProject, version: number | undefined): Promise<Snapshot> {
    const message = (republish: boolean) =>
      `${republish ? 'Update from Wolfpack' : 'Generated by Wolfpack'}: ${firstLine(project.idea)}${version === undefined ? '' : ` (version ${version})`}`;
    if (version === undefined || version === project.version) {
      const files = await this.projects.files(userId, project.id);
      return { files: async () => files, message };
    }
    assertVersion(version, project.version);
    const versions = this.versionReader();
    return { files: async () => (await versions.versionFiles(userId, project.id, version)).files, message };
  }

  /** Versions 1 to `upTo` (default: the current one), oldest first, each with its label as the message. */
  private async history(userId: string, project: OwnedProject, upTo = project.version): Promise<Snapshot[]> {
    assertVersion(upTo, project.version);
    const versions = this.versionReader();
    const listed = (await versions.list(userId, project.id)).versions.filter((v) => v.number <= upTo).reverse();
    if (listed.length > MAX_HISTORY_COMMITS) {
      throw new AppError(
        'BAD_REQUEST',
        `This project has ${listed.length} versions up to version ${upTo}, and a history is published as at most ${MAX_HISTORY_COMMITS} commits. Publish without history, or name an earlier version.`,
      );
    }
    return listed.map((v) => ({ files: async () => (await versions.versionFiles(userId, project.id, v.number)).files, message: () => v.label }));
  }

  private versionReader(): VersionReader {
    if (!this.versions) throw new Error('GithubPublisher was made without a VersionReader: it cannot read versions');
    return this.versions;
  }

  /** Uploads the files' contents GitHub does not have from this publish yet; their blobs' shas, in the order of `files`. */
  private async upload(octokit: Octokit, owner: string, repo: string, files: Record<string, string>, uploaded: Map<string, string>): Promise<string[]> {
    const contents = Object.values(files);
    const keys = contents.map((content) => createHash('sha256').update(content).digest('hex'));
    const missing = [...new Set(keys.filter((key) => !uploaded.has(key)))];
    const contentOf = new Map(keys.map((key, i) => [key, contents[i]!]));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(BLOB_CONCURRENCY, missing.length) }, async () => {
        while (next < missing.length) {
          const key = missing[next++]!;
          const blob = await octokit.rest.git.createBlob({ owner, repo, content: Buffer.from(contentOf.get(key)!).toString('base64'), encoding: 'base64' });
          uploaded.set(key, blob.data.sha);
        }
      }),
    );
    return keys.map((key) => uploaded.get(key)!);
  }

  /** The repository as it is on GitHub, or null when it no longer exists. */
  private async existing(octokit: Octokit, owner: string, repo: string): Promise<PublishTarget | null> {
    try {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      return { branch: data.default_branch, htmlUrl: data.html_url, fullName: data.full_name };
    } catch (error) {
      if (status(error) === 404) return null;
      throw error;
    }
  }

  /**
   * Creates the repository with an initial commit. When the name is taken by a repository that
   * holds nothing but such an initial commit (or nothing at all), it is taken over instead: that
   * is what a publish leaves behind when GitHub failed after creating the repository, and trying
   * again must work. Anything else under that name is the user's, and a 409.
   */
  private async create(octokit: Octokit, owner: string, repo: string, request: PublishRequest): Promise<PublishTarget> {
    try {
      const { data } = await octokit.rest.repos.createForAuthenticatedUser({ name: repo, description: request.description, private: request.isPrivate, auto_init: true });
      return { branch: data.default_branch || 'main', htmlUrl: data.html_url, fullName: data.full_name };
    } catch (error) {
      if (status(error) !== 422) throw error;
      const unfinished = await this.unfinished(octokit, owner, repo);
      if (unfinished) return unfinished;
      throw new AppError('CONFLICT', `A repository named "${repo}" already exists on your GitHub account. Choose another name.`);
    }
  }

  /** The repository named `repo`, if it is empty or holds only an initial commit of one README. */
  private async unfinished(octokit: Octokit, owner: string, repo: string): Promise<PublishTarget | null> {
    const target = await this.existing(octokit, owner, repo);
    if (!target) return null;
    let head: string;
    try {
      head = (await octokit.rest.git.getRef({ owner, repo, ref: `heads/${target.branch}` })).data.object.sha;
    } catch (error) {
      // 409 "Git Repository is empty.": nothing in it, nothing to lose.
      if (status(error) === 409 || status(error) === 404) return target;
      throw error;
    }
    const commit = (await octokit.rest.git.getCommit({ owner, repo, commit_sha: head })).data;
    if (commit.parents.length > 0) return null;
    const entries = (await octokit.rest.git.getTree({ owner, repo, tree_sha: commit.tree.sha })).data.tree;
    const only = entries.length === 1 ? entries[0] : undefined;
    if (only?.type !== 'blob' || only.path?.toLowerCase() !== 'readme.md' || !only.sha || !only.path) return null;
    return { ...target, head, keep: { path: only.path, sha: only.sha } };
  }

  /** The branch's head commit; an empty repository first gets a README through the contents API. */
  private async headOf(octokit: Octokit, owner: string, repo: string, branch: string): Promise<string> {
    try {
      return (await octokit.rest.git.getRef({ owner, repo, ref: `heads/${branch}` })).data.object.sha;
    } catch (error) {
      if (status(error) !== 409 && status(error) !== 404) throw error;
      const init = await octokit.rest.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: 'README.md',
        message: 'Initial commit',
        content: Buffer.from(`# ${repo}\n`).toString('base64'),
        branch,
      });
      return init.data.commit.sha!;
    }
  }
}

/** Where a publish goes: the branch, the repository's names, its head when already known. */
interface PublishTarget {
  branch: string;
  htmlUrl: string;
  fullName: string;
  head?: string;
  /** A file of the initial commit to keep when the project has no file of that name. */
  keep?: { path: string; sha: string };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

function status(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number'
    ? (error as { status: number }).status
    : undefined;
}

/** GitHub's failures as sentences that say what to do. Tokens never appear in them. */
export function githubError(error: unknown, baseUrl: string): AppError {
  if (error instanceof AppError) return error;
  const response = (error as { response?: { headers?: Record<string, string> } }).response;
  // Octokit reports a request that never got an answer (refused, reset, DNS) as a status 500
  // without a response: that is GitHub out of reach, not GitHub answering 500.
  if (!response) return new AppError('BAD_GATEWAY', `Could not reach GitHub at ${baseUrl}. Check the connection and try again.`);
  const code = status(error);
  const headers = (response.headers ?? {}) as Record<string, string>;
  const data = (error as { response?: { data?: unknown } }).response?.data;
  // GitHub's 5xx pages are HTML, not JSON: only a JSON message is worth quoting.
  const message = String((typeof data === 'object' && data !== null ? (data as { message?: unknown }).message : undefined) ?? '').replace(/\.\s*$/, '');
  if (code === 401) return new AppError('BAD_REQUEST', 'GitHub rejected the token (401 Bad credentials). Create a new token and save it in Settings.');
  const retryAfter = Number(headers['retry-after']);
  if ((code === 403 || code === 429) && (headers['x-ratelimit-remaining'] === '0' || /rate limit/i.test(message) || Number.isFinite(retryAfter) && retryAfter > 0)) {
    const reset = Number(headers['x-ratelimit-reset']);
    // A secondary rate limit says how long to wait in Retry-After; the primary one when it resets.
    const seconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : Number.isFinite(reset) && reset > 0 ? Math.max(1, Math.ceil(reset - Date.now() / 1000)) : 60;
    const when = ` after ${new Date(Date.now() + seconds * 1000).toISOString().slice(11, 16)} UTC`;
    return new AppError('TOO_MANY_REQUESTS', `GitHub's rate limit is used up. Try again${when}.`, { retryAfterSeconds: seconds });
  }
  if (code === 403 || code === 404) {
    return new AppError('FORBIDDEN', 'GitHub refused: the token lacks permission to create or write repositories. Use a token with the repo scope (or Contents and Administration write access).');
  }
  if (code === 422 && /fast.?forward/i.test(message)) {
    return new AppError('CONFLICT', 'The repository on GitHub changed while publishing (someone pushed to it). Publish again to add the project on top.');
  }
  if (code === 409) {
    return new AppError('BAD_GATEWAY', `GitHub is not ready to take the files yet (409${message ? ` ${message}` : ''}). Wait a few seconds and publish again.`);
  }
  if (code === 422) {
    return new AppError('BAD_REQUEST', `GitHub refused the request (422${message ? `: ${message}` : ''}). Publish again; if it keeps failing, publish under another repository name.`);
  }
  return new AppError('BAD_GATEWAY', `GitHub answered ${code}${message ? ` (${message})` : ''}. Try again in a few minutes; publishing again continues where this one stopped.`);
}
