export type { ParsedFile, FileProblem, FileProblemKind } from './parsed-file.js';
export { sanitizePath, MAX_PATH_LENGTH, MAX_SEGMENT_LENGTH, type SanitizedPath } from './safe-path.js';
export {
  parseFileBlocks,
  formatFileBlock,
  FILE_BLOCK_INSTRUCTIONS,
  type ParseResult,
} from './file-blocks.js';
export {
  applyFileChanges,
  formatFileOperation,
  parseOperationLine,
  FILE_OPERATION_INSTRUCTIONS,
  type AppliedChanges,
  type FileOperation,
} from './file-operations.js';
export {
  applyLimits,
  utf8ByteLength,
  formatBytes,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_PROJECT_BYTES,
  type LimitedFiles,
} from './limits.js';
export { detectIncomplete, isPlaceholderComment, type IncompleteCandidate } from './detect-incomplete.js';
export {
  verifyProject,
  verifyProjects,
  formatProblems,
  coverage,
  describeCoverage,
  type ExecutionCheck,
  type ProjectCheck,
  type StaticCheck,
  type VerifyCheck,
  type VerifyProblem,
  type VerifyReport,
} from './verify.js';
export {
  runPipeline,
  type PipelineCheckpoint,
  type PipelineInput,
  type PipelineOutcome,
  type PipelineStreamEvent,
  type StageRecord,
} from './run-pipeline.js';
export { messageChars, type CallPurpose, type EngineCallRecord } from './engine-runner.js';
export type { FailedRepair, RunMemory } from './run-memory.js';
export { parsePlan, formatPlan, type PlannedFile, type ProjectPlan } from './plan.js';
export { scriptedEngine, systemOf, userOf, type ScriptedAnswer, type ScriptedEngine } from './testing-engines.js';
// njin's consensus iteration verifies candidates with esbuild/TypeScript: server-only, like the pipeline.
export { runIteration, VOTE_MAX_TOKENS } from '../njin/consensus.js';
export { VOTE_SYSTEM_PROMPT } from '../njin/vote.js';
