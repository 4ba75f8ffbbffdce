/**
 * Defects in how an engine answers rather than in the code: placeholders, cut-off replies,
 * answers that ignore the format, repairs that change nothing or undo an earlier repair, and a
 * polish that brings a fixed bug back. The files are correct; the replies are not.
 */
import { formatFileBlock } from '../file-blocks.js';
import type { FaultCall, FaultCase } from './fault-case.js';
import { changed, NODE_JS, oneEdit, STATIC_WEB } from './projects.js';

// The note a round that did not work leaves for the next one (see stage-repair.ts).
const told = (call: FaultCall) => /Your previous repair \(round \d+ of \w[\w ]*, engine \w+\) did not work\./.test(call.user);
const BROKEN_APP = STATIC_WEB['app.js']!.replace('books.push(input.value.trim());', 'books.push(input.value.trim();');
const LOST_STYLESHEET = STATIC_WEB['index.html']!.replace('href="styles.css"', 'href="style.css"');
const same = (path: string, content: string) => (files: Readonly<Record<string, string>>) => files[path] === content;

export const ANSWER_CASES: FaultCase[] = [
  {
    id: 'placeholder-stub',
    kind: 'node-js',
    defect: 'a file written with "// ... rest of the code unchanged" in place of code',
    files: NODE_JS,
    engineFixes: true,
    reply: (call) =>
      call.kind === 'build' && call.path === 'src/tip.js'
        ? formatFileBlock('src/tip.js', 'export function tip(bill, percent) {\n  return Math.round(bill * percent) / 100;\n}\n\n// ... rest of the code unchanged\n')
        : undefined,
    expect: /src\/tip\.js was incomplete \(line 5 is a placeholder/,
    isFixed: same('src/tip.js', NODE_JS['src/tip.js']!),
    expectCalls: { completion: 1, repair: 0 },
  },
  {
    id: 'truncated-file',
    kind: 'static-web',
    defect: 'a reply cut off at the token limit in the middle of the file',
    files: STATIC_WEB,
    engineFixes: true,
    reply: (call) =>
      call.kind === 'build' && call.path === 'app.js' ? { text: `\`\`\`js app.js\n${STATIC_WEB['app.js']!.slice(0, 200)}`, finishReason: 'length' } : undefined,
    expect: /app\.js was incomplete \(the answer was cut off\)/,
    isFixed: same('app.js', STATIC_WEB['app.js']!),
    expectCalls: { completion: 1, repair: 0 },
  },
  {
    id: 'truncated-whole-project',
    kind: 'static-web',
    defect: 'every single-file request answered with the whole project, cut off in its last file',
    files: STATIC_WEB,
    engineFixes: true,
    // Only README.md was cut: the three files closed before the limit are complete and must not
    // be sent back (asking for them again would cost one completion call per planned file).
    reply: (call) => {
      if (call.kind !== 'build') return undefined;
      const all = Object.entries(STATIC_WEB).map(([p, c]) => formatFileBlock(p, c)).join('\n');
      return { text: all.slice(0, all.lastIndexOf('Open')), finishReason: 'length' };
    },
    expect: /README\.md was incomplete \(the answer was cut off\)/,
    isFixed: same('README.md', STATIC_WEB['README.md']!),
    expectCalls: { completion: 1, repair: 0 },
  },
  {
    id: 'ignores-format',
    kind: 'static-web',
    defect: 'a reply that puts the file in a code block without its path',
    files: STATIC_WEB,
    engineFixes: true,
    reply: (call) => (call.kind === 'build' && call.path === 'styles.css' ? `Sure! Here is a clean stylesheet.\n\n\`\`\`css\n${STATIC_WEB['styles.css']!}\`\`\`\n` : undefined),
    expect: /styles\.css was incomplete \(the answer held no file\)/,
    isFixed: same('styles.css', STATIC_WEB['styles.css']!),
    expectCalls: { completion: 1 },
  },
  {
    id: 'absolute-path',
    kind: 'node-js',
    defect: 'a file written under an absolute path',
    files: NODE_JS,
    engineFixes: true,
    reply: (call) => (call.kind === 'build' && call.path === 'src/tip.js' ? `\`\`\`js /src/tip.js\n${NODE_JS['src/tip.js']!}\`\`\`\n` : undefined),
    expect: /"\/src\/tip\.js" is not a safe file path/,
    isFixed: same('src/tip.js', NODE_JS['src/tip.js']!),
    expectCalls: { completion: 1 },
  },
  {
    id: 'never-completes-placeholder',
    kind: 'static-web',
    defect: 'a script that comes back with a placeholder every time',
    files: STATIC_WEB,
    engineFixes: false,
    reply: (call) => {
      const stub = formatFileBlock('app.js', 'function render() {\n  // TODO: implement the rest\n}\n');
      if ((call.kind === 'build' || call.kind === 'completion') && call.path === 'app.js') return stub;
      return call.kind === 'repair' ? 'The script is fine as it is.' : undefined;
    },
    expect: /index\.html: imports: 'app\.js' does not match any generated file/,
    isFixed: same('app.js', STATIC_WEB['app.js']!),
  },
  {
    id: 'repair-ignores-format',
    kind: 'static-web',
    defect: 'a repair answered first with a diff, which changes no file',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']! } },
    engineFixes: true,
    reply: (call) =>
      call.kind === 'repair' && !told(call) ? '--- a/app.js\n+++ b/app.js\n@@ -12 +12 @@\n-  books.push(input.value.trim();\n+  books.push(input.value.trim());\n' : undefined,
    expect: /app\.js: syntax:/,
    expectCalls: { repair: 2 },
  },
  {
    id: 'repair-unchanged-first',
    kind: 'static-web',
    defect: 'a repair that sends the broken file back unchanged until told it did not work',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']! } },
    engineFixes: true,
    reply: (call) => (call.kind === 'repair' && !told(call) ? formatFileBlock('app.js', BROKEN_APP) : undefined),
    expect: /app\.js: syntax:/,
    expectCalls: { repair: 2 },
  },
  {
    id: 'repair-rotates-engine',
    kind: 'static-web',
    defect: 'one of two engines never fixes the file; the retry must go to the other',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']! } },
    engineFixes: true,
    engines: ['alpha', 'beta'],
    reply: (call) => (call.kind === 'repair' && call.engine === 'alpha' ? formatFileBlock('app.js', BROKEN_APP) : undefined),
    expect: /app\.js: syntax:/,
    expectCalls: { repair: 2 },
  },
  {
    id: 'repair-brings-back-fixed',
    kind: 'static-web',
    defect: 'the second repair fixes the page but sends back the script the first repair fixed',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP, 'index.html': LOST_STYLESHEET }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']!, 'index.html': STATIC_WEB['index.html']! } },
    engineFixes: true,
    reply: (call) => {
      if (call.kind !== 'repair') return undefined;
      if (call.attempt === 0) return formatFileBlock('app.js', STATIC_WEB['app.js']!);
      return `${formatFileBlock('index.html', STATIC_WEB['index.html']!)}\n${formatFileBlock('app.js', BROKEN_APP)}`;
    },
    expect: /app\.js: syntax:/,
    expectCalls: { repair: 2 },
  },
  {
    id: 'repair-cut-off',
    kind: 'static-web',
    defect: 'a repair cut off at the token limit in its second file',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP, 'index.html': LOST_STYLESHEET }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']!, 'index.html': STATIC_WEB['index.html']! } },
    engineFixes: true,
    reply: (call) => {
      if (call.kind !== 'repair' || /cut off at the token limit in: app\.js/.test(call.user)) return undefined;
      return { text: `${formatFileBlock('index.html', STATIC_WEB['index.html']!)}\n\`\`\`js app.js\n${STATIC_WEB['app.js']!.slice(0, 150)}`, finishReason: 'length' };
    },
    expect: /app\.js was incomplete \(the answer was cut off\)/,
    expectCalls: { repair: 2, completion: 0 },
  },
  {
    id: 'polish-restores-broken',
    kind: 'static-web',
    defect: 'Polishing answers with the original broken script after a repair fixed it',
    files: changed(STATIC_WEB, { 'app.js': BROKEN_APP }),
    fix: { files: { 'app.js': STATIC_WEB['app.js']! } },
    engineFixes: true,
    reply: (call) => (call.kind === 'polish' ? formatFileBlock('app.js', BROKEN_APP) : undefined),
    expect: /Kept the earlier app\.js: the polished version is one an earlier repair replaced/,
    expectCalls: { repair: 1 },
  },
  {
    id: 'polish-reintroduces-fixed',
    kind: 'node-js',
    defect: 'Polishing rewrites package.json and drops the dependency a repair added',
    ...oneEdit(NODE_JS, 'package.json', ',\n  "dependencies": { "chalk": "^5.3.0" }', ''),
    engineFixes: true,
    reply: (call) =>
      call.kind === 'polish'
        ? formatFileBlock('package.json', NODE_JS['package.json']!.replace(',\n  "dependencies": { "chalk": "^5.3.0" }', ',\n  "description": "Splits a bill, tip included."'))
        : undefined,
    expect: /Kept the earlier package\.json: the polished version brings back a problem fixed earlier \(package\.json: package-json: 'chalk' is imported/,
    expectCalls: { repair: 1 },
  },
];
