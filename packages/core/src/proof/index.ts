// Proven Code's execution gate: the sandbox and the checks that run a generated project in it.
// Server-only (child processes, bubblewrap, Chromium), like the pipeline.
//
// Settings from the environment (all optional):
//   WOLFPACK_SANDBOX=off                     run nothing; reports say "not executed: no sandbox on this server"
//   WOLFPACK_PROOF_TIME_LIMIT_MS             sandbox time for one project, all checks (20000)
//   WOLFPACK_PROOF_START_MS                  how long a start must survive (3000)
//   WOLFPACK_PROOF_CACHE_DIR                 dependency cache (<tmp>/wolfpack-proof-deps); must be readable by
//                                            "nobody" when the server runs as root
//   WOLFPACK_PROOF_INSTALL_TIME_LIMIT_MS     npm install time (120000)
//   WOLFPACK_PROOF_INSTALL_MAX_BYTES         largest node_modules (400 MiB)
//   WOLFPACK_PREVIEW_BUILD_TIME_LIMIT_MS     sandbox time for a preview's build (60000)
//   WOLFPACK_PREVIEW_START_MS                how long a previewed HTTP server has to listen (30000)
//   WOLFPACK_PROOF_COMMAND_TIME_LIMIT_MS, _CPU_SECONDS, _MEMORY_BYTES, _PROCESSES, _OUTPUT_BYTES,
//   _FILE_BYTES, _DISK_BYTES, _TMP_BYTES, _OPEN_FILES, _RUNTIME_RESERVE_BYTES   per-command limits (sandbox-limits.ts)
//   WOLFPACK_PROOF_SANDBOX_MEMORY_BYTES, _SANDBOX_PROCESSES, _SANDBOX_CPU_PERCENT   each whole sandbox (its control group)
//   WOLFPACK_PROOF_CGROUP=off (watchdog only), WOLFPACK_PROOF_CGROUP_PARENT (where groups are made; sandbox-group.ts)
//   WOLFPACK_PREVIEW_CPU_PERCENT, WOLFPACK_PREVIEW_CPU_WINDOW_SECONDS   a previewed server's CPU budget (50 % over 60 s)
// The server's own: WOLFPACK_PROOF_CONCURRENCY, projects run at once a process (boundedExecutor's slots).
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
export { DEFAULT_SANDBOX_LIMITS, resolveLimits, type SandboxLimits, type StopReason } from './sandbox-limits.js';
export { groupMode } from './group-mode.js';
export type { GroupMode, GroupUsage } from './sandbox-group.js';
export { withProjectCopy } from './project-copy.js';
export { asVerifyReport, createExecutionGate, type ExecutionGate, type ExecutionGateOptions } from './execution-gate.js';
export { ExecutionThread, type ExecutionThreadOptions } from './execution-thread.js';
export { installDependencies, type InstallOptions, type InstallResult } from './node-deps.js';
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
