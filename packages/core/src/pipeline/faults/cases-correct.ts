/**
 * Correct projects of every kind: they must pass with no problem and no repair or completion
 * call. A false alarm costs the user money and trust as much as a missed defect.
 */
import type { FaultCase } from './fault-case.js';
import { NODE_JS, NODE_TS, PYTHON, STATIC_WEB } from './projects.js';

const correct = (id: string, kind: FaultCase['kind'], files: Record<string, string>, extra: Partial<FaultCase> = {}): FaultCase => ({
  id,
  kind,
  defect: null,
  files,
  engineFixes: true,
  ...extra,
});

export const CORRECT_CASES: FaultCase[] = [
  correct('correct-node-js', 'node-js', NODE_JS),
  correct('correct-node-ts', 'node-ts', NODE_TS),
  correct('correct-python', 'python', PYTHON),
  correct('correct-static-web', 'static-web', STATIC_WEB),
  // The same page, written the way models drift from the format: a bold path line above a bare
  // fence, a path comment as the first line, <file> tags and CRLF line endings.
  correct('correct-static-web-loose-format', 'static-web', STATIC_WEB, {
    reply: (call) => {
      if (call.kind !== 'build' || call.path === undefined) return undefined;
      const content = STATIC_WEB[call.path]!;
      if (call.path === 'index.html') return `**index.html**\n\n\`\`\`html\n${content}\`\`\`\n`;
      if (call.path === 'app.js') return `\`\`\`javascript\n// app.js\n${content}\`\`\`\r\n`.replace(/\n/g, '\r\n');
      if (call.path === 'styles.css') return `<file path="styles.css">\n${content}</file>\n`;
      return undefined;
    },
  }),
];
