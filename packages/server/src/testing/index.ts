// Test helpers other packages' tests use (the CLI publishes against the same fake GitHub).
export { startFakeGithub, type FakeGithub, type FakeGithubOptions } from './fake-github.js';
export { startFakeStripe, type FakeStripe, type FakeStripeOptions, type FakeCard, type FakeSession } from './fake-stripe.js';
export { TEST_PASSWORD_COST } from './password-cost.js';
export { copyPgliteTemplate, createDatabaseTemplates, type DatabaseTemplates } from './database-template.js';
export { PreviewClient, type PreviewReply } from './preview-client.js';
export { processesWith, runningTags } from './processes.js';
export type { Sql } from '../db/plain-sql.js';
