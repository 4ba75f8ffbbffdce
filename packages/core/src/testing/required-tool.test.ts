import { afterEach, describe, expect, it, vi } from 'vitest';
import { commandWorks, needTool } from './required-tool.js';

describe('needTool', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says nothing when the tool is there', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(needTool({ tool: 'tmux', available: true }, 'terminal tests', {})).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('skips with the reason printed when the tool is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(needTool({ tool: 'unzip', available: false }, 'the unzip check of exports', {})).toBe(false);
    expect(warn).toHaveBeenCalledWith('[skipped] the unzip check of exports: unzip is not installed (Debian: apt-get install unzip)');
  });

  it('fails instead of skipping when the run requires its tools', () => {
    expect(() => needTool({ tool: 'bubblewrap', available: false, reason: 'bwrap is unusable: no user namespaces' }, 'sandbox tests', { WOLFPACK_TEST_REQUIRE_TOOLS: '1' })).toThrow(
      'sandbox tests cannot run: bwrap is unusable: no user namespaces. npm test installs it',
    );
  });
});

describe('commandWorks', () => {
  it('tells a program that runs from one that does not exist', () => {
    expect(commandWorks(process.execPath, ['--version'])).toBe(true);
    expect(commandWorks('wolfpack-no-such-program', ['--version'])).toBe(false);
    expect(commandWorks(process.execPath, ['-e', 'process.exit(3)'])).toBe(false);
  });
});
