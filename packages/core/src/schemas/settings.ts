/** Settings stored on the server: the user's GitHub token (write-only; only its account shows). */
import { z } from 'zod';

export const githubSettingsReply = z.object({ connected: z.boolean(), login: z.string().nullable() });
export type GithubSettingsReply = z.infer<typeof githubSettingsReply>;

export const saveGithubTokenRequest = z.object({
  token: z.string().trim().min(1, 'Paste a GitHub token').max(500, 'That is too long for a GitHub token'),
});
export type SaveGithubTokenRequest = z.infer<typeof saveGithubTokenRequest>;

/** Scripts and CI may send a token per request instead of saving one (never stored). */
export const GITHUB_TOKEN_HEADER = 'X-GitHub-Token';
