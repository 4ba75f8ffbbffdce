/**
 * The voting round, Mixture-of-Agents style: every engine sees the passing candidates as unified
 * diffs under letters (A, B, C…, in its own random order, so neither position nor authorship can
 * be favoured) and names the best one. One round, all voters at once.
 */
import type { ChatMessage } from '../engines/engine.js';

export interface Ballot {
  /** The letter this voter sees, mapped back to a candidate index. */
  letter: string;
  candidate: number;
  patch: string;
}

export const VOTE_SYSTEM_PROMPT = [
  'You review proposed changes to a software project. Each proposal is a unified diff under a letter.',
  'All of them already pass static checks. Pick the one that best does what the instruction asks, with the fewest unrelated changes.',
  'End your answer with one line: VOTE: <letter>',
].join('\n');

/** Random integer in [0, n). */
function pick(n: number, random: () => number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** A voter's ballot: candidate indices in a random order (Fisher-Yates), lettered A, B, C… */
export function ballotFor(patches: readonly string[], random: () => number): Ballot[] {
  const order = patches.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = pick(i + 1, random);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((candidate, position) => ({ letter: String.fromCharCode(65 + position), candidate, patch: patches[candidate] ?? '' }));
}

/** The vote call's messages; each diff is cut to `charsPerPatch` so the ballot fits the context. */
export function voteMessages(instruction: string, ballot: readonly Ballot[], charsPerPatch: number): ChatMessage[] {
  const proposals = ballot.map(({ letter, patch }) => {
    const shown = patch.length > charsPerPatch ? `${patch.slice(0, charsPerPatch)}\n… (cut for length)` : patch;
    return `Proposal ${letter}:\n\`\`\`diff\n${shown}\`\`\``;
  });
  const letters = ballot.map((b) => b.letter).join(', ');
  return [
    { role: 'system', content: VOTE_SYSTEM_PROMPT },
    { role: 'user', content: [`Instruction:\n${instruction}`, ...proposals, `Which proposal is best (${letters})? End with "VOTE: <letter>".`].join('\n\n') },
  ];
}

/**
 * The letter a voter chose, or null when its reply names none of the ballot's letters. The last
 * "VOTE: X" line counts (a voter may think aloud first); a reply that is just a letter counts too.
 */
export function parseVote(reply: string, letters: readonly string[]): string | null {
  const valid = new Set(letters.map((l) => l.toUpperCase()));
  const votes = [...reply.matchAll(/\bVOTE\s*[:=\-]?\s*[*_"'`(\[]*\s*(?:proposal\s+)?([A-Z])\b/gi)].map((m) => (m[1] ?? '').toUpperCase());
  for (let i = votes.length - 1; i >= 0; i--) if (valid.has(votes[i]!)) return votes[i]!;
  const bare = /^[\s*_"'`(\[]*(?:proposal\s+)?([A-Z])[\s*_"'`)\].]*$/i.exec(reply.trim());
  const letter = bare?.[1]?.toUpperCase();
  return letter !== undefined && valid.has(letter) ? letter : null;
}

export interface TallyEntry {
  candidate: number;
  /** Changed lines of the candidate: fewer wins a tie. */
  changedLines: number;
}

/**
 * The winning candidate: most votes, then fewest changed lines, then the earlier candidate (so a
 * result does not depend on timing). With no votes at all, fewest changed lines decides.
 */
export function pickWinner(entries: readonly TallyEntry[], votes: ReadonlyMap<number, number>): number {
  const sorted = [...entries].sort(
    (a, b) => (votes.get(b.candidate) ?? 0) - (votes.get(a.candidate) ?? 0) || a.changedLines - b.changedLines || a.candidate - b.candidate,
  );
  const first = sorted[0];
  if (!first) throw new Error('pickWinner needs at least one candidate');
  return first.candidate;
}
