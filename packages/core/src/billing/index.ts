export * from './money.js';
export * from './ledger-kinds.js';
export * from './referrals.js';
export * from './guardrail.js';
export * from './call-caps.js';
export * from './call-purse.js';
export * from './estimate.js';
export * from './usage-bounds.js';
