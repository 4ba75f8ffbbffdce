/**
 * Polishing: quality improvements that must not cost correctness. Each polished file is tried on
 * its own and kept only when it adds no problem, brings back none that an earlier version had,
 * and is not a version a repair already replaced.
 */
import { POLISHING_SYSTEM, polishingUser } from './prompts/index.js';
import { isReplacedVersion, problemKey, problemLine, remember } from './run-memory.js';
import { ask, filesForPrompt, mergeFiles, readAnswer, type StageHandler } from './stage-context.js';
import { verifyProject } from './verify.js';

const MAX_POLISHED_FILES = 8;

export const polishing: StageHandler = async (ctx) => {
  const { text, engine } = await ask(ctx, POLISHING_SYSTEM, polishingUser(ctx.ideaText, filesForPrompt(ctx, ctx.state.files)));
  if (/^\s*UNCHANGED\s*\.?\s*$/i.test(text)) {
    ctx.emit('info', 'Polishing found nothing to improve.');
    return { ok: true, engine: engine.key };
  }
  const answer = await readAnswer(ctx, text);
  if (answer.operations.length > 0) ctx.emit('warning', `Polishing may not delete or move files; ${answer.operations.length} DELETE/MOVE line(s) were ignored.`);
  const proposed = Object.entries(answer.files).slice(0, MAX_POLISHED_FILES);
  const memory = ctx.state.memory;
  const before = verifyProject(ctx.state.files);
  remember(memory, before);
  const brokenBefore = new Set(before.problems.map(problemKey));
  const kept: string[] = [];
  for (const [path, content] of proposed) {
    if (ctx.state.files[path] === content) continue;
    if (isReplacedVersion(memory, path, content)) {
      ctx.emit('warning', `Kept the earlier ${path}: the polished version is one an earlier repair replaced because it was broken.`);
      continue;
    }
    // Checked against the project as it stands, so each file's verdict is its own.
    const fresh = verifyProject({ ...ctx.state.files, [path]: content }).problems.filter((p) => !brokenBefore.has(problemKey(p)));
    const regression = fresh.find((p) => memory.seen[problemKey(p)] !== undefined);
    if (regression) {
      ctx.emit('warning', `Kept the earlier ${path}: the polished version brings back a problem fixed earlier (${problemLine(regression)}).`);
      continue;
    }
    if (fresh.length > 0) {
      ctx.emit('warning', `Kept the earlier ${path}: the polished version failed ${fresh[0]!.check} (${fresh[0]!.message}).`);
      continue;
    }
    mergeFiles(ctx, { [path]: content });
    kept.push(path);
  }
  ctx.emit(kept.length > 0 ? 'success' : 'info', kept.length > 0 ? `Polished ${kept.join(', ')}.` : 'Polishing changed nothing.');
  return { ok: true, engine: engine.key };
};
