/**
 * Every key the web app keeps in the browser's storage (spec core §3 "Browser-stored values"), in
 * one place so two screens never disagree about a name. The README lists them with their values.
 */
export const STORAGE_KEYS = {
  /** 'light' or 'dark'. */
  theme: 'theme',
  /** '#rrggbb'. */
  brandColor: 'brandColor',
  /** The Learn More marketing section: 'true' (open) or 'false'. */
  marketingOpen: 'marketingOpen',
  /** JSON {current, total, percent} of the run in progress; cleared on page load. */
  pipelineProgress: 'pipelineProgress',
  /** Run id of the pipeline in progress, to reattach after a reload or a dropped connection. */
  currentPipelineId: 'currentPipelineId',
  /** Project id of the last completed run; cleared on page load. */
  completedProjectId: 'completedProjectId',
  /** Project the next run builds on (Continue Building, Load Latest Project); removed once sent. */
  continueProjectId: 'continueProjectId',
  /** JSON {idea, projectId?} run automatically with /?autostart=true, then removed. */
  tweakRequest: 'tweakRequest',
  /** All Projects' sort order: newest, oldest, a-z, z-a, most-files or least-files. */
  projectSort: 'projectSort',
  /** 'true' once the one-time AI Enhance tip has been shown. */
  enhanceTipShown: 'enhanceTipShown',
  /** JSON {timeSavedHours, costSavedDollars, runs} of this browser session. */
  sessionSavings: 'sessionSavings',
  /** JSON {month: 'YYYY-MM', timeSavedHours, costSavedDollars, runs}; reset when the month differs. */
  monthlySavings: 'monthlySavings',
  /** JSON {timeSavedHours, costSavedDollars, runs} since the first run in this browser. */
  totalSavings: 'totalSavings',
  /** 'WPXXXXXX': the referral code of the link the visitor arrived with (?ref=), sent on sign-up. */
  referrerCode: 'referrerCode',
  /** The `?ref=` value of the last link followed when it was not a code (shown as malformed on sign-up). */
  malformedReferralCode: 'malformedReferralCode',
  /** Epoch milliseconds when the savings popup last showed (at most once per 60 minutes). */
  savingsPopupShownAt: 'savingsPopupShownAt',
  /** JSON {balanceCents, amountDollars, startedAt} of a checkout the user left for, until credited. */
  pendingCheckout: 'pendingCheckout',
  /** The Showcase's sort: newest, oldest, price-asc or price-desc. */
  showcaseSort: 'showcaseSort',
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/**
 * Marks the current browser session in sessionStorage, which the browser empties when the session
 * ends: its absence tells the session savings counters to start again from zero.
 */
export const SESSION_MARKER_KEY = 'savingsSessionStarted';

/**
 * sessionStorage: JSON {user, timeSavedHours, costSavedDollars, runs}, the server's all-time
 * savings of `user` when this browser session first read them; Home's "This session" row is what
 * was added since.
 */
export const SESSION_SAVINGS_START_KEY = 'savingsSessionStart';
