// Helpers the tests of every package use (not part of the product).
export { commandWorks, needTool, type ToolCheck } from './required-tool.js';
export { sandboxCheck } from './sandbox-tool.js';
