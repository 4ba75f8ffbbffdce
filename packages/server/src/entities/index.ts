import { ApiToken } from './api-token.js';
import { LoginFailure } from './login-failure.js';
import { SessionRecord } from './session-record.js';
import { User } from './user.js';

export { ApiToken, LoginFailure, SessionRecord, User };

/** Every entity the ORM knows; migrations must create exactly these tables. */
export const allEntities = [User, SessionRecord, ApiToken, LoginFailure];
