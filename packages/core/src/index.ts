export * from './errors.js';
export * from './schemas/common.js';
export * from './schemas/api.js';
export * from './schemas/api-tokens.js';
export * from './schemas/events.js';
export * from './schemas/attachments.js';
export * from './schemas/projects.js';
export * from './schemas/folders.js';
export * from './schemas/previews.js';
export * from './schemas/billing.js';
export * from './schemas/community.js';
export * from './schemas/njin.js';
export * from './schemas/experiments.js';
export * from './schemas/admin.js';
export * from './sse/sse.js';
export * from './schemas/runs.js';
export * from './savings/savings.js';
export * from './savings/run-value.js';
export * from './billing/index.js';
export { pipelineProgress as computePipelineProgress } from './pipeline/progress.js';
export * from './pipeline/stage-status.js';
export * from './pipeline/step-progress.js';
export * from './engines/engine.js';
export * from './schemas/settings.js';
// Proven Code's verification record.
export * from './schemas/verification.js';
export * from './schemas/versions.js';
export * from './versions/import-rules.js';
export * from './versions/diff-files.js';
export * from './verification/verification-record.js';
export { backoffMs, type BackoffOptions } from './util/backoff.js';
export { escapeHtml } from './util/escape-html.js';
export { sleep } from './util/sleep.js';
export { Slots, type SlotOptions } from './util/slots.js';
// Showcase: tech-stack detection, generated covers, sale arithmetic.
export * from './community/tech-stack.js';
export * from './community/cover-image.js';
export * from './community/listing-fees.js';
export * from './community/listing-copy.js';
// Capsules: recording a run as a capsule, trending order.
export * from './community/capsule-recorder.js';
export * from './community/trending.js';
// njin: API keys.
export * from './njin/api-key.js';
// njin: consensus iteration.
// Browser-safe parts only: runIteration reads files with the pipeline's parser, which loads esbuild,
// so the server imports it from '@wolfpack/core/pipeline'.
export * from './njin/consensus-mode.js';
export type { IterationCallRecord, IterationOptions, IterationOutcome, IterationUsage } from './njin/consensus.js';
export type { IterationCheck, ProjectVerifier } from './njin/candidate-check.js';
// Lab: experiment savings.
export * from './lab/experiment-savings.js';
export * from './lab/experiment-flow.js';
// Admin: metrics.
export * from './admin/admin-metrics.js';
export * from './schemas/body-limits.js';
