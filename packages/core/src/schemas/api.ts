/**
 * Every request and response payload of the HTTP API, as zod schemas. The server validates with
 * these; web and CLI type and parse with them. Nothing else defines a payload.
 */
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** Every API error: `success` is always false, so `{success, error}` callers read errors too. */
export const errorReply = z.object({
  success: z.literal(false).optional(),
  error: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfterSeconds: z.number().optional(),
});
export type ErrorReply = z.infer<typeof errorReply>;

// ---------------------------------------------------------------------------------------------
// Health
// ---------------------------------------------------------------------------------------------

/**
 * GET /api/health: 200 with `ok: true`, or 503 with `ok: false` and why (the database cannot be
 * reached, or cannot store anything), for a load balancer to take the server out of rotation.
 */
export const healthReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), database: z.enum(['pglite', 'postgres']) }),
  z.object({ ok: z.literal(false), database: z.enum(['pglite', 'postgres']), reason: z.string() }),
]);
export type HealthReply = z.infer<typeof healthReply>;

// ---------------------------------------------------------------------------------------------
// Accounts (spec core §3 User, §5, §7, §8)
// ---------------------------------------------------------------------------------------------

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 8;
/** Upper bound keeps a hash of an enormous password from being a denial of service. */
export const PASSWORD_MAX = 1024;

export const username = z
  .string()
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(USERNAME_MAX, 'Username must be at most 64 characters')
  .regex(/^[\p{L}\p{N}._-]+$/u, 'Username may contain only letters, digits, dots, hyphens and underscores')
  // The server compares names by their NFKC, lower-cased form (so "ＡＬＩＣＥ" is "alice"), and
  // some letters grow there ("ﬃ" is three, "İ" two): that form must fit the 64 characters too.
  .refine((v) => v.normalize('NFKC').toLowerCase().length <= USERNAME_MAX, 'Username must be at most 64 characters');

export const password = z
  .string()
  .min(PASSWORD_MIN, 'Password must be at least 8 characters')
  .max(PASSWORD_MAX, 'Password must be at most 1024 characters');

/** POST /api/auth/login and /api/auth/register. confirmPassword is never sent. */
export const credentials = z.object({ username, password });
export type Credentials = z.infer<typeof credentials>;

/**
 * POST /api/auth/register: credentials plus the referral code the visitor arrived with
 * (`?ref=`). An unknown code is ignored, never an error; a malformed one is dropped too.
 */
export const registerRequest = credentials.extend({
  referralCode: z
    .string()
    .max(64)
    .optional()
    .catch(undefined)
    .transform((code) => (code && /^[A-Za-z0-9]{1,32}$/.test(code.trim()) ? code.trim().toUpperCase() : undefined)),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

/** The registration form (web): confirmPassword exists only here. */
export const registerForm = credentials
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerForm>;

/** `user` is present on success (register, login): the signed-in user, so no extra /me is needed. */
export const authReply = z.object({ success: z.boolean(), error: z.string(), user: z.lazy(() => publicUser).optional() });
export type AuthReply = z.infer<typeof authReply>;

export const publicUser = z.object({ username: z.string(), plan: z.string() });
export type PublicUser = z.infer<typeof publicUser>;

export const meReply = z.object({ user: publicUser });
export type MeReply = z.infer<typeof meReply>;

export const logoutReply = z.object({ success: z.literal(true) });
export type LogoutReply = z.infer<typeof logoutReply>;

/**
 * POST /api/auth/tokens: the CLI's login. Checks the password (same throttling as login) and
 * answers a personal API token, shown once and stored only as a hash.
 */
export const createTokenRequest = credentials.extend({
  name: z.string().trim().min(1).max(100).default('wolfpack-cli'),
});
export type CreateTokenRequest = z.input<typeof createTokenRequest>;

export const createTokenReply = z.object({
  token: z.string(),
  id: z.string(),
  name: z.string(),
  user: publicUser,
});
export type CreateTokenReply = z.infer<typeof createTokenReply>;
