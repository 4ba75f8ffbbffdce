/**
 * What a model answers is rarely only the prompt: strip the usual wrapping (a preamble line like
 * "Here is the enhanced prompt:", a heading, a code fence, surrounding quotes) and keep the text.
 */
export function cleanPromptOutput(text: string): string {
  let out = text.replace(/\r\n?/g, '\n').trim();
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1\s*$/.exec(out);
  if (fenced) out = fenced[2]!.trim();
  const lines = out.split('\n');
  // A first line that only announces the answer ("Here's an improved version:", "**Enhanced Prompt**").
  if (lines.length > 1 && /^(?:#+\s*|\*\*)?(?:here(?:'s| is)|sure|certainly|okay|ok\b|below is|final|improved|enhanced|refined|rewritten)[^\n]{0,80}(?::|\*\*)\s*$/i.test(lines[0]!.trim())) {
    lines.shift();
  }
  out = lines.join('\n').trim();
  out = out.replace(/^(?:final|improved|enhanced|refined)\s+(?:build\s+)?prompt\s*:\s*/i, '');
  if (/^(["'“])[\s\S]*(["'”])$/.test(out) && out.length > 2) out = out.slice(1, -1).trim();
  return out;
}
