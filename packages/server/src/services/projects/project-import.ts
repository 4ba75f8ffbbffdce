import { Octokit } from '@octokit/rest';
import { AppError, IMPORT_MAX_ZIP_BYTES, importIdea, type GithubImportRequest, type ImportReply } from '@wolfpack/core';
import type { Logger } from '../../logger.js';
import type { SettingsService } from '../accounts/settings-service.js';
import { githubError } from './github-publisher.js';
import { unpackImportZip } from './import-zip.js';
import type { VersionStore } from './version-store.js';

export interface ProjectImportOptions {
  store: VersionStore;
  settings: SettingsService;
  /** GitHub's API (the fake in tests). */
  githubApiUrl?: string | undefined;
  log: Logger;
}

/** Imports: a zip or a GitHub repository becomes a project whose version 1 is "Imported from …". */
export class ProjectImportService {
  constructor(private readonly options: ProjectImportOptions) {}

  /** A zip sent by the user; `name` is its file name, shown as the origin. */
  async importZip(userId: string, zip: Buffer, request: { name?: string | undefined; idea?: string | undefined }): Promise<ImportReply> {
    return this.create(userId, zip, request.name?.trim() || 'a zip file', request.idea);
  }

  /**
   * A GitHub repository at `ref` (absent: its default branch), downloaded as GitHub's zipball with
   * the user's token (the one sent, else the one saved in Settings).
   */
  async importGithub(userId: string, request: GithubImportRequest, sentToken?: string): Promise<ImportReply> {
    const token = sentToken || (await this.options.settings.githubToken(userId));
    const [owner, repo] = request.github.split('/') as [string, string];
    const baseUrl = this.options.githubApiUrl ?? 'https://api.github.com';
    let tooLarge = false;
    const octokit = new Octokit({
      auth: token,
      baseUrl,
      userAgent: 'wolfpack',
      // Octokit's own logging would print every expected 404 to the console; failures become sentences below.
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
      request: {
        retries: 0,
        fetch: limitedFetch(IMPORT_MAX_ZIP_BYTES, () => (tooLarge = true)),
      },
    });
    let fullName: string;
    let ref: string;
    try {
      const { data } = await octokit.rest.repos.get({ owner, repo });
      fullName = data.full_name;
      ref = request.ref ?? data.default_branch;
    } catch (error) {
      throw readError(error, baseUrl, `GitHub has no repository ${request.github} that your token can see. Check the name; for a private repository, give the token access to it.`);
    }
    let zip: Buffer;
    try {
      const { data } = await octokit.rest.repos.downloadZipballArchive({ owner, repo, ref });
      zip = Buffer.from(data as ArrayBuffer);
    } catch (error) {
      if (tooLarge) throw new AppError('BAD_REQUEST', `${fullName} at ${ref} is over ${IMPORT_MAX_ZIP_BYTES / 1024 / 1024} MiB as a zip, the most an import may be. Nothing was imported.`);
      throw readError(error, baseUrl, `${fullName} has no branch, tag or commit named "${ref}". Check the name and try again.`);
    }
    return this.create(userId, zip, `github:${fullName}@${ref}`, request.idea);
  }

  private async create(userId: string, zip: Buffer, origin: string, idea: string | undefined): Promise<ImportReply> {
    const { files, skipped } = await unpackImportZip(zip);
    const project = await this.options.store.createProject(userId, importIdea(idea, files, origin), files, { kind: 'import', origin });
    this.options.log.info(`import: project ${project.id} from ${origin.startsWith('github:') ? 'GitHub' : 'a zip'}, ${Object.keys(files).length} files, ${skipped.length} left out`);
    return { project, version: 1, skipped };
  }
}

/** GitHub's refusal of a read as a sentence; `notFound` for its 404 (GitHub also says 404 for a private repository the token cannot see). */
function readError(error: unknown, baseUrl: string, notFound: string): AppError {
  const mapped = githubError(error, baseUrl);
  const status = (error as { status?: unknown }).status;
  if (mapped.code === 'TOO_MANY_REQUESTS' || mapped.code === 'BAD_GATEWAY' && !(error as { response?: unknown }).response) return mapped;
  if (status === 404) return new AppError('NOT_FOUND', notFound);
  if (status === 403) return new AppError('FORBIDDEN', 'GitHub refused to let your token read this repository. Use a token with access to it (the repo scope, or Contents read access) and save it in Settings.');
  return mapped;
}

/**
 * fetch that stops reading a body past `limit` bytes: the zipball is downloaded whole, and
 * neither GitHub's Content-Length (often absent) nor the repository's size bounds it.
 */
function limitedFetch(limit: number, onTooLarge: () => void): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const tooLarge = () => {
      onTooLarge();
      return new Error(`The response is over ${limit} bytes`);
    };
    if (Number(response.headers.get('content-length') ?? 0) > limit) {
      await response.body?.cancel();
      throw tooLarge();
    }
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    let seen = 0;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limit) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
