import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { proofCapability } from '@wolfpack/core';
import { groupMode } from '@wolfpack/core/proof';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeProof, namespaceFix, ProofCapabilityService, type SandboxState } from './proof-capability.js';

describe('describeProof: the sentence and the one command, case by case', () => {
  it('says nothing when bubblewrap and Chromium work', () => {
    expect(describeProof({ kind: 'ready' }, true)).toEqual({ sandbox: true, browser: true, notice: null });
  });

  it('a fresh machine: bubblewrap and Chromium in one apt-get', () => {
    expect(describeProof({ kind: 'missing', packages: ['bubblewrap'] }, false)).toEqual({
      sandbox: false,
      browser: false,
      reason: 'bubblewrap and Chromium are not installed',
      fix: 'sudo apt-get install bubblewrap chromium',
      notice: 'Proven Code cannot run generated code on this server (bubblewrap and Chromium are not installed), so verdicts are "not proven". Fix: sudo apt-get install bubblewrap chromium',
    });
    expect(describeProof({ kind: 'missing', packages: ['bubblewrap'] }, true).notice).toBe(
      'Proven Code cannot run generated code on this server (bubblewrap is not installed), so verdicts are "not proven". Fix: sudo apt-get install bubblewrap',
    );
    expect(describeProof({ kind: 'missing', packages: ['util-linux'] }, true)).toMatchObject({ reason: 'prlimit is not installed', fix: 'sudo apt-get install util-linux' });
  });

  it('only Chromium missing: pages are not loaded, and verdicts are not called "not proven" for that', () => {
    const capability = describeProof({ kind: 'ready' }, false);
    expect(capability).toEqual({
      sandbox: true,
      browser: false,
      reason: 'Chromium is not installed',
      fix: 'sudo apt-get install chromium',
      notice: "Proven Code cannot load web pages on this server (Chromium is not installed): a project's pages are not opened in a browser. Fix: sudo apt-get install chromium",
    });
  });

  it('turned off: the fix is to start without the setting (after installing Chromium when it is missing)', () => {
    expect(describeProof({ kind: 'off' }, true)).toMatchObject({
      sandbox: false,
      reason: 'the sandbox is turned off with WOLFPACK_SANDBOX=off',
      fix: 'restart the server without WOLFPACK_SANDBOX=off',
    });
    expect(describeProof({ kind: 'off' }, false)).toMatchObject({
      reason: 'the sandbox is turned off with WOLFPACK_SANDBOX=off; Chromium is not installed',
      fix: 'sudo apt-get install chromium, then restart the server without WOLFPACK_SANDBOX=off',
    });
  });

  it('user namespaces refused: the kernel setting that allows them', () => {
    const capability = describeProof({ kind: 'blocked', fix: 'sudo sysctl -w kernel.unprivileged_userns_clone=1' }, true);
    expect(capability.notice).toBe(
      'Proven Code cannot run generated code on this server (bubblewrap cannot start a sandbox here, most likely because user namespaces are refused), so verdicts are "not proven". Fix: sudo sysctl -w kernel.unprivileged_userns_clone=1',
    );
  });

  it('every case fits core schema, ends with its fix, and names no path', () => {
    const states: SandboxState[] = [{ kind: 'ready' }, { kind: 'off' }, { kind: 'missing', packages: ['bubblewrap', 'util-linux'] }, { kind: 'blocked', fix: 'sudo sysctl -w user.max_user_namespaces=15000' }];
    for (const state of states) {
      for (const browser of [true, false]) {
        const capability = proofCapability.parse(describeProof(state, browser));
        if (capability.notice !== null) expect(capability.notice.endsWith(`Fix: ${capability.fix}`)).toBe(true);
        expect(JSON.stringify(capability)).not.toMatch(/\/(usr|bin|tmp|proc|home|root)\b/);
      }
    }
  });
});

describe('namespaceFix: which setting refuses them', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wolfpack-sysctl-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function sysctls(values: Record<string, string>): Promise<string> {
    const root = await mkdtemp(join(dir, 'proc-sys-'));
    for (const [name, value] of Object.entries(values)) {
      const parts = name.split('.');
      await mkdir(join(root, ...parts.slice(0, -1)), { recursive: true });
      await writeFile(join(root, ...parts), `${value}\n`);
    }
    return root;
  }

  it('names the kernel setting, else the container options, else says what is needed', async () => {
    expect(namespaceFix(await sysctls({ 'kernel.apparmor_restrict_unprivileged_userns': '1', 'user.max_user_namespaces': '1000' }), [])).toBe(
      'sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    );
    expect(namespaceFix(await sysctls({ 'kernel.unprivileged_userns_clone': '0' }), [])).toBe('sudo sysctl -w kernel.unprivileged_userns_clone=1');
    expect(namespaceFix(await sysctls({ 'user.max_user_namespaces': '0' }), [])).toBe('sudo sysctl -w user.max_user_namespaces=15000');
    const allowed = await sysctls({ 'kernel.unprivileged_userns_clone': '1', 'user.max_user_namespaces': '1000' });
    const marker = join(dir, 'dockerenv');
    await writeFile(marker, '');
    expect(namespaceFix(allowed, [marker])).toBe('run the container with --security-opt seccomp=unconfined --security-opt systempaths=unconfined');
    expect(namespaceFix(allowed, [join(dir, 'no-such-marker')])).toBe('allow unprivileged user namespaces on this machine (bubblewrap needs them)');
  });
});

describe('ProofCapabilityService', () => {
  it('with WOLFPACK_SANDBOX=off and no Chromium: says both, once found, in the start-up line and to clients alike', async () => {
    const service = new ProofCapabilityService({ env: { WOLFPACK_SANDBOX: 'off' }, chromiumPaths: [] });
    const capability = await service.capability();
    expect(capability).toMatchObject({ sandbox: false, browser: false });
    expect(await service.startupLine()).toBe(capability.notice);
    expect(await service.capability()).toBe(capability);
  });
});

describe('the start-up line on what bounds each sandbox', () => {
  const bwrap = existsSync('/usr/bin/bwrap');

  it('says nothing when no sandbox runs here', async () => {
    expect(await new ProofCapabilityService({ env: { WOLFPACK_SANDBOX: 'off' }, chromiumPaths: [] }).limitsLine()).toBeNull();
  });

  it.skipIf(!bwrap)('names the mode in effect: its control group, or per-program limits and the watchdog (a warning)', { timeout: 30_000 }, async () => {
    const mode = groupMode(process.env).kind;
    const grouped = await new ProofCapabilityService({ env: process.env, chromiumPaths: [] }).limitsLine();
    if (mode === 'watchdog') expect(grouped).toMatchObject({ level: 'warn', line: expect.stringMatching(/limited per program only/) });
    else
      expect(grouped).toEqual({
        level: 'info',
        line: `Sandbox limits: each sandbox runs in a control group of its own (cgroup ${mode === 'cgroup2' ? 'v2' : 'v1'}) with 1024 MiB of memory (tmpfs included), 128 processes, 1 CPU core, killed whole at its time limit or any of these.`,
      });
    const watched = await new ProofCapabilityService({ env: { ...process.env, WOLFPACK_PROOF_CGROUP: 'off', WOLFPACK_PROOF_SANDBOX_PROCESSES: '64' }, chromiumPaths: [] }).limitsLine();
    expect(watched).toEqual({
      level: 'warn',
      line: "Sandbox limits: no control group here (turned off with WOLFPACK_PROOF_CGROUP=off), so memory (a 512 MiB heap, 2048 MiB of address space) and processes (256) are limited per program only, CPU is not shared out, and a watchdog sampling each sandbox's processes kills it past 1024 MiB of memory (RSS and tmpfs) or 64 processes.",
    });
    expect(watched!.line).not.toContain('\n');
  });
});
