import { sanitizePath } from './safe-path.js';

export interface PlannedFile {
  path: string;
  purpose: string;
}

export interface ProjectPlan {
  summary: string;
  files: PlannedFile[];
}

/** Names without an extension that are still files a plan may list. */
const BARE_FILE_NAMES = /^(Dockerfile|Makefile|Procfile|LICENSE|\.gitignore|\.env\.example|\.nvmrc|\.replit)$/;

// "FILE: src/a.ts - purpose", "- `src/a.ts` — purpose", "1. **src/a.ts**: purpose", "src/a.ts (purpose)"
const PLAN_LINE =
  /^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:FILE|File|file|Path|path)?\s*:?\s*[`*"']*([A-Za-z0-9_.\-/]+)[`*"']*(?:\*\*)?\s*(?:[-–—:]+\s*|\(\s*)?(.*?)\)?\s*$/;

/**
 * Reads the file plan out of a Planning answer. Tolerant of the usual deviations (bullets,
 * numbering, bold, backticks, other dashes); anything that is not a safe relative file path is
 * ignored. The summary is the prose before the first file line.
 */
export function parsePlan(text: string): ProjectPlan {
  const files: PlannedFile[] = [];
  const seen = new Set<string>();
  const summaryLines: string[] = [];
  let inFence = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const match = PLAN_LINE.exec(line);
    const candidate = match?.[1];
    if (candidate && looksLikeFile(candidate)) {
      const safe = sanitizePath(candidate);
      if (safe.ok && !seen.has(safe.path)) {
        seen.add(safe.path);
        files.push({ path: safe.path, purpose: (match[2] ?? '').trim() || 'as planned' });
      }
      continue;
    }
    if (files.length === 0 && line.trim()) summaryLines.push(line.trim());
  }
  return { summary: summaryLines.join(' ').slice(0, 2000), files };
}

function looksLikeFile(candidate: string): boolean {
  const name = candidate.split('/').pop() ?? '';
  return /\.[A-Za-z0-9]{1,10}$/.test(name) ? !/^\d+(\.\d+)*$/.test(name) : BARE_FILE_NAMES.test(name);
}

/** The plan as the text later stages see. */
export function formatPlan(plan: ProjectPlan): string {
  return [plan.summary, ...plan.files.map((f) => `FILE: ${f.path} - ${f.purpose}`)].filter(Boolean).join('\n');
}
