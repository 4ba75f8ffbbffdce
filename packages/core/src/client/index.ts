/**
 * The run client the web page and the CLI share (`@wolfpack/core/client`): following a run's and an
 * enhancement's events, and reducing them to the one view state both draw. Browser-safe.
 */
export { EmptyStreamError, errorSentence, fetchTransport, ServerRefusal, type FetchTransportOptions, type RunTransport, type StreamCall } from './run-transport.js';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RECONNECTS,
  followRun,
  reconnectWaitMs,
  RunFollowError,
  runPath,
  StreamDecodeError,
  type FollowFailure,
  type FollowRunOptions,
  type RunItem,
  type RunSource,
} from './follow-run.js';
export { IdleStreamError, untilIdle } from './until-idle.js';
export {
  appendFeed,
  FEED_LIMIT,
  initialRunView,
  isPartialRun,
  isRunActive,
  limitStages,
  liveTimes,
  reduceRun,
  withLocalLine,
  type FeedItem,
  type RunPhase,
  type RunResult,
  type RunView,
  type StageView,
} from './run-view.js';
export { ENHANCE_PATH, EnhancementLostError, followEnhancement, type EnhanceItem, type FollowEnhancementOptions } from './follow-enhancement.js';
export {
  EMPTY_RESULT_MESSAGE,
  enhancePercent,
  failEnhance,
  formatEstimate,
  initialEnhanceView,
  merging,
  reduceEnhance,
  remainingSeconds,
  startEnhance,
  type EnhanceOutcome,
  type EnhancePhase,
  type EnhanceStepView,
  type EnhanceView,
} from './enhance-view.js';
