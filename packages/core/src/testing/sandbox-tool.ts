import { findSandbox } from '../proof/sandbox.js';
import type { ToolCheck } from './required-tool.js';

/** Whether Proven Code's sandbox (bubblewrap) works here, for tests that run generated code in it. */
export async function sandboxCheck(): Promise<ToolCheck> {
  const found = await findSandbox({ env: {} });
  return 'sandbox' in found
    ? { tool: 'bubblewrap', available: true }
    : // The sandbox's own sentence names the fix when the fix is installing it: said once, not twice.
      { tool: 'bubblewrap', available: false, reason: `there is no usable sandbox (${found.unavailable.includes('apt-get') ? found.unavailable : `${found.unavailable}; Debian: apt-get install bubblewrap`})` };
}
