import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '@wolfpack/core';

/** The repository this server runs from (packages/server/{src,dist}/services → the root). */
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));

/** How long one build of the tarball may take (esbuild and npm pack take a few seconds). */
const BUILD_TIMEOUT_MS = 120_000;

/** After a failed build, requests are told so for this long before the next try. */
const RETRY_AFTER_MS = 60_000;

export interface CliTarballFile {
  path: string;
  fileName: string;
  size: number;
}

export interface CliTarballOptions {
  /** @default the repository this server runs from */
  root?: string;
  log?: { info(message: string): void; warn(message: string, error?: unknown): void };
}

/**
 * The CLI's npm tarball of this server's version (dist-cli/wolfpack-cli-VERSION.tgz, made by
 * `pnpm pack:cli`), for `npm i -g https://HOST/cli/wolfpack-cli.tgz`. A server whose tarball is
 * missing builds it on the first request, once, and every later request gets that file.
 */
export class CliTarball {
  readonly #root: string;
  readonly #log: CliTarballOptions['log'];
  #building: Promise<void> | undefined;
  #failedAt = 0;
  #failure = '';

  constructor(options: CliTarballOptions = {}) {
    this.#root = options.root ?? REPOSITORY;
    this.#log = options.log;
  }

  async file(): Promise<CliTarballFile> {
    const version = await this.#version();
    const fileName = `wolfpack-cli-${version}.tgz`;
    const path = join(this.#root, 'dist-cli', fileName);
    if (!existsSync(path)) await this.#build(fileName);
    return { path, fileName, size: (await stat(path)).size };
  }

  async #version(): Promise<string> {
    try {
      const manifest = JSON.parse(await readFile(join(this.#root, 'packages', 'cli', 'package.json'), 'utf8')) as { version?: unknown };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Said below, as for any server without the CLI's sources.
    }
    throw missing('this install has no CLI sources (packages/cli) to build it from');
  }

  async #build(fileName: string): Promise<void> {
    const script = join(this.#root, 'packages', 'cli', 'scripts', 'pack.mjs');
    if (!existsSync(script)) throw missing('this install has no packages/cli/scripts/pack.mjs to build it with');
    if (this.#failedAt > 0 && Date.now() - this.#failedAt < RETRY_AFTER_MS) throw missing(this.#failure);
    this.#building ??= this.#run(script, fileName).finally(() => (this.#building = undefined));
    await this.#building;
  }

  async #run(script: string, fileName: string): Promise<void> {
    this.#log?.info(`building ${fileName} for GET /cli/wolfpack-cli.tgz`);
    const failure = await new Promise<string | undefined>((resolve) => {
      const child = spawn(process.execPath, [script], { cwd: this.#root, stdio: ['ignore', 'ignore', 'pipe'], timeout: BUILD_TIMEOUT_MS });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
      child.on('error', (error) => resolve(error.message));
      child.on('close', (code, signal) => {
        if (code === 0) return resolve(undefined);
        // Node prints an uncaught error's source line first: the error's own line says what
        // failed, cut before the paths it names (a visitor reads this).
        const lines = stderr.split('\n').filter((line) => line.trim() !== '');
        const error = lines.map((line) => /^\w*Error: ([^,]+)/.exec(line.trim())?.[1]).find((found) => found !== undefined);
        const reason = error ?? lines[0]?.trim() ?? `it ended with ${signal ?? `exit code ${code}`}`;
        resolve(`building it failed: ${reason}`);
      });
    });
    if (failure === undefined && existsSync(join(this.#root, 'dist-cli', fileName))) return;
    this.#failedAt = Date.now();
    this.#failure = failure ?? `building it wrote no ${fileName}`;
    this.#log?.warn(`the CLI tarball could not be built: ${this.#failure}`);
    throw missing(this.#failure);
  }
}

function missing(reason: string): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `This server has no CLI tarball (${reason}). Run \`pnpm pack:cli\` in the server's Wolfpack repository, then try again.`,
  );
}
