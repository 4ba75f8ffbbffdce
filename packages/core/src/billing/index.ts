export * from './money.js';
export * from './ledger-kinds.js';
export * from './referrals.js';
export * from './guardrail.js';
