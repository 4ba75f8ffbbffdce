import { ApiToken } from './api-token.js';
import { capsuleEntities } from './capsule.js';
import { experimentEntities } from './experiment.js';
import { listingEntities } from './listing.js';
import { njinEntities } from './njin.js';
import { Hold, LedgerEntry, PaymentCard, ReferralReward, StripeCheckout, StripeEvent, Wallet } from './billing.js';
import { Conversation, EngineUsage, RunEvent } from './conversation.js';
import { Enhancement, EnhancementStep } from './enhancement.js';
import { LoginFailure } from './login-failure.js';
import { Folder, Project, ProjectFile, ProjectVersion, UserSecret } from './project.js';
import { SessionRecord } from './session-record.js';
import { User } from './user.js';

export { ApiToken, Hold, LedgerEntry, PaymentCard, ReferralReward, StripeCheckout, StripeEvent, Wallet, Conversation, Enhancement, EnhancementStep, EngineUsage, Folder, LoginFailure, Project, ProjectFile, ProjectVersion, RunEvent, SessionRecord, User, UserSecret };

/** Every entity the ORM knows; migrations must create exactly these tables. */
export const allEntities = [User, SessionRecord, ApiToken, LoginFailure, Project, ProjectFile, ProjectVersion, Folder, UserSecret, Conversation, RunEvent, EngineUsage, Enhancement, EnhancementStep, Wallet, LedgerEntry, Hold, ReferralReward, StripeCheckout, StripeEvent, PaymentCard, ...listingEntities, ...capsuleEntities, ...njinEntities, ...experimentEntities];
