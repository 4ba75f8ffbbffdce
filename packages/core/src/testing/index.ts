// Helpers the tests of every package use (not part of the product).
export { commandWorks, needTool, type ToolCheck } from './required-tool.js';
export { sandboxCheck } from './sandbox-tool.js';
// The fault corpus and the real packages its bundled apps install, for tests of other packages.
export { BUNDLED_CASES } from '../pipeline/faults/cases-bundled.js';
export { replyForRequest } from '../pipeline/faults/index.js';
export { startFakeNpmRegistry, type FakeNpmRegistry } from '../proof/testing/fake-npm-registry.js';
export { workspaceTree } from '../proof/testing/workspace-tree.js';
// Apps the proof checks run, reused by the browser tests of their preview.
export { viteRouterApp } from '../proof/fixtures/bundled.js';
export { expressNotes } from '../proof/fixtures/full-stack.js';
// The project whose every step of Proven Code runs, for the tests of the step lines.
export { STEPPED_PACKAGES, steppedProject, steppedReply } from '../proof/fixtures/stepped.js';
export { stageEvent } from './stage-event.js';
