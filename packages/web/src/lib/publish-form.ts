/** The publish dialog's form rules (spec core §2 Publish dialog, §5, §8). */
import { publishRequest, suggestRepoName, type PublishRequest } from '@wolfpack/core';

export interface PublishFormValues {
  repoName: string;
  description: string;
  isPrivate: boolean;
}

/** The first line of the idea makes a fitting repository description (GitHub allows 350 characters). */
function descriptionFor(idea: string): string {
  const line = idea.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 350 ? `${line.slice(0, 347)}...` : line;
}

/**
 * What the form starts with: the suggested name (the first 50 characters of the idea, lowercased,
 * other than letters, digits, whitespace and hyphens removed, whitespace runs as single hyphens),
 * the idea's first line as description, public.
 */
export function initialPublishForm(idea: string): PublishFormValues {
  return { repoName: suggestRepoName(idea), description: descriptionFor(idea), isPrivate: false };
}

/** A message for the person, as a toast title and description. */
export interface FormProblem {
  title: string;
  description: string;
}

export type PublishFormCheck = { ok: true; request: PublishRequest } | { ok: false; problem: FormProblem };

/**
 * Checks the form before sending. A blank name is the spec's 'Repository Name Required' / 'Please
 * enter a name for your GitHub repository'; other problems use the core schema's sentence.
 */
export function checkPublishForm(values: PublishFormValues): PublishFormCheck {
  if (!values.repoName.trim()) {
    return {
      ok: false,
      problem: { title: 'Repository Name Required', description: 'Please enter a name for your GitHub repository' },
    };
  }
  const parsed = publishRequest.safeParse(values);
  if (!parsed.success) {
    return {
      ok: false,
      problem: { title: 'Invalid Repository Details', description: parsed.error.issues[0]?.message ?? 'Check the form' },
    };
  }
  return { ok: true, request: parsed.data };
}
