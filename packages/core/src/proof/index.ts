// Proven Code's execution gate: the sandbox and the checks that run a generated project in it.
// Server-only (child processes, bubblewrap, Chromium), like the pipeline.
//
// Its settings (WOLFPACK_SANDBOX, WOLFPACK_PROOF_*, WOLFPACK_PREVIEW_*: docs/CONFIGURATION.md) come
// as a ProofEnv the server read and checked at start; nothing here reads the process's environment.
export { boundedExecutor } from './bounded-executor.js';
export {
  executeProject,
  projectKinds,
  type ExecuteOptions,
  type ProjectExecutor,
  type ProjectKinds,
  type SandboxOwner,
} from './execute-project.js';
export {
  executionFailed,
  executionProblems,
  formatExecutionReport,
  type ExecCheck,
  type ExecCheckName,
  type ExecProblem,
  type ExecRuntime,
  type ExecStatus,
  type ExecutionReport,
} from './report.js';
export {
  findSandbox,
  sandboxLimitsLine,
  SANDBOX_PROJECT_DIR,
  type FindSandboxOptions,
  type ReadOnlyBind,
  type Sandbox,
  type SandboxResult,
  type SandboxRun,
} from './sandbox.js';
export { DEFAULT_SANDBOX_LIMITS, DEFAULT_TOOL_PATH, resolveLimits, type ProofEnv, type SandboxLimits, type StopReason } from './sandbox-limits.js';
export { groupMode } from './group-mode.js';
export type { GroupMode, GroupUsage } from './sandbox-group.js';
export { withProjectCopy } from './project-copy.js';
export { asVerifyReport, createExecutionGate, type ExecutionGate, type ExecutionGateOptions } from './execution-gate.js';
export { ExecutionThread, type ExecutionThreadOptions } from './execution-thread.js';
export { installDependencies, NETWORK_ENV, type InstallOptions, type InstallResult } from './node-deps.js';
export { CHROMIUM_CANDIDATES, type PageCheckOptions } from './check-page.js';
export { buildPreview, planPreview, type PreviewBuild, type PreviewBuildOptions, type PreviewPlan, type PreviewStep } from './preview-site.js';
export {
  PREVIEW_SERVER_CPU_SECONDS,
  PREVIEW_SERVER_LIFETIME_MS,
  startPreviewServer,
  type PreviewServer,
  type PreviewServerExit,
  type PreviewServerOptions,
  type PreviewServerStart,
  type PreviewServerStep,
} from './preview-server.js';
export { cookieFromApp, cookiesForApp, headersForApp, headersFromApp, locationInPreview, type HeaderRecord, type PreviewMount } from './preview-headers.js';
export {
  httpOrigin,
  isLoopbackHost,
  pathInsidePreview,
  PREVIEW_APP_COOKIE,
  PREVIEW_COOKIE,
  PREVIEW_COOKIE_PREFIX,
  PREVIEW_ENTER_PATH,
  PREVIEW_RESERVED_PREFIX,
  previewOrigin,
  previewProjectOf,
  splitHost,
  type PreviewOriginInput,
} from './preview-origin.js';
export { planServer, type ServerPlan } from './server-plan.js';
export { findServerRoutes, routeHasParameters, type ServerRoute } from './server-routes.js';
export { siteFileFor } from './site-path.js';
export type { BuiltSite } from './check-bundle.js';
export type { BundlePlan } from './bundle-plan.js';
