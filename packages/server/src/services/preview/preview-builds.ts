/**
 * The sandboxed builds behind bundled apps' previews, one per project version (keyed by the hash
 * of its files), built on demand and kept: on disk as one tar per site in DATA_DIR/preview-cache
 * (so a restart or another server process does not build again), and the sites in use in memory.
 * At most WOLFPACK_PREVIEW_BUILDS (2) build at once; the others wait their turn.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTar, parseTar } from 'nanotar';
import { Slots } from '@wolfpack/core';
import type { ExecProblem } from '@wolfpack/core/proof';
import { buildPreview, type PreviewStep } from '@wolfpack/core/proof';
import type { BundlePlan, ProofEnv } from '@wolfpack/core/proof';

export type PreviewBuildState =
  | { status: 'waiting' }
  | { status: 'building'; step: PreviewStep }
  | { status: 'ready'; tool: string; files: ReadonlyMap<string, Uint8Array> }
  | { status: 'failed'; tool: string; command: string; problem: ExecProblem }
  | { status: 'unavailable'; reason: string };

/** Sites kept in memory at once; the least recently used is dropped (it stays on disk). */
const SITES_IN_MEMORY = 16;

export interface PreviewBuildsOptions {
  /** Where built sites are kept. */
  cacheDir: string;
  /** The sandbox's settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*, WOLFPACK_PREVIEW_*), never passed to the build itself. */
  env: ProofEnv;
  /** Builds at once; the others wait their turn (WOLFPACK_PREVIEW_BUILDS, checked in config/env.ts). */
  concurrency: number;
}

export class PreviewBuilds {
  private readonly states = new Map<string, PreviewBuildState>();
  private readonly slots: Slots;

  constructor(private readonly options: PreviewBuildsOptions) {
    this.slots = new Slots(options.concurrency);
  }

  /**
   * The state of the site of these files (`hash` names them), starting its build when nothing is
   * known of it yet. A site built before (this process or another, before a restart) is read back.
   */
  async site(hash: string, plan: BundlePlan, files: () => Promise<Record<string, string>>): Promise<PreviewBuildState> {
    const known = this.states.get(hash);
    if (known) {
      if (known.status === 'ready') this.touch(hash, known);
      return known;
    }
    const stored = await this.readStored(hash);
    if (stored) {
      const ready: PreviewBuildState = { status: 'ready', tool: stored.tool, files: stored.files };
      this.touch(hash, ready);
      return ready;
    }
    this.states.set(hash, { status: 'waiting' });
    void this.build(hash, plan, files);
    return this.states.get(hash)!;
  }

  private touch(hash: string, state: PreviewBuildState): void {
    this.states.delete(hash);
    this.states.set(hash, state);
    const ready = [...this.states].filter(([, s]) => s.status === 'ready');
    for (const [old] of ready.slice(0, Math.max(0, ready.length - SITES_IN_MEMORY))) this.states.delete(old);
  }

  private build(hash: string, plan: BundlePlan, files: () => Promise<Record<string, string>>): Promise<void> {
    return this.slots.run(() => this.buildNow(hash, plan, files));
  }

  private async buildNow(hash: string, plan: BundlePlan, files: () => Promise<Record<string, string>>): Promise<void> {
    try {
      this.states.set(hash, { status: 'building', step: 'installing' });
      const result = await buildPreview(await files(), plan, {
        env: this.options.env,
        onStep: (step) => this.states.set(hash, { status: 'building', step }),
      });
      if (result.ok) {
        await this.store(hash, result.site.tool, result.site.files);
        this.touch(hash, { status: 'ready', tool: result.site.tool, files: result.site.files });
      } else if ('problem' in result) {
        this.states.set(hash, { status: 'failed', tool: plan.tool, command: result.command, problem: result.problem });
      } else {
        this.states.set(hash, { status: 'unavailable', reason: result.unavailable });
      }
    } catch (error) {
      this.states.set(hash, { status: 'unavailable', reason: `the preview could not be built (${(error as Error).message})` });
    }
  }

  private file(hash: string): string {
    return join(this.options.cacheDir, `${hash}.tar`);
  }

  private async store(hash: string, tool: string, files: ReadonlyMap<string, Uint8Array>): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    const tar = createTar([{ name: '.wolfpack-tool', data: tool }, ...[...files].map(([name, data]) => ({ name: `site/${name}`, data }))]);
    // Written whole, then renamed: a reader never sees half a site.
    const temporary = `${this.file(hash)}.${process.pid}.tmp`;
    await writeFile(temporary, tar);
    await rename(temporary, this.file(hash));
  }

  private async readStored(hash: string): Promise<{ tool: string; files: Map<string, Uint8Array> } | undefined> {
    let tar: Buffer;
    try {
      tar = await readFile(this.file(hash));
    } catch {
      return undefined;
    }
    const files = new Map<string, Uint8Array>();
    let tool = 'the bundler';
    for (const item of parseTar(tar)) {
      if (item.name === '.wolfpack-tool') tool = item.text;
      else if (item.name.startsWith('site/') && item.data) files.set(item.name.slice('site/'.length), item.data);
    }
    return { tool, files };
  }
}
