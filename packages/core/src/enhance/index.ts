export { runEnhancement, type EnhancementInput, type EnhancementOutcome, type EnhancementStepRecord } from './run-enhancement.js';
export { cleanPromptOutput } from './clean-prompt.js';
