import type { ChatMessage } from '../engines/engine.js';
import { DEMO_FILES, demoFile, readIdea } from './demo-project.js';

/** Text of a message whatever its shape. */
function textOf(message: ChatMessage | undefined): string {
  if (!message) return '';
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

function block(path: string, content: string): string {
  const lang = path.split('.').pop() ?? 'text';
  const fence = content.includes('```') ? '````' : '```';
  return `${fence}${lang} ${path}\n${content}${content.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** The idea as the stage and enhancer prompts present it ("Project idea:\n…"), else the whole user text. */
function ideaFrom(user: string): string {
  const match = /(?:Project idea|The user's project idea):\n([\s\S]*?)(?:\n\n(?:Attached files|Files the user attached|Proposals|This continues|The project plan|Plan:|Problems found|The project files|The files involved|Your previous answer)|$)/.exec(user);
  return (match?.[1] ?? user).trim();
}

/**
 * What a demo engine answers to a chat request, by the stage its system prompt names. The answer
 * is in the same plain-text formats real engines are asked for, so it goes through the same
 * parsers: the demo exercises the real pipeline, not a shortcut.
 */
export function demoReply(messages: ChatMessage[]): string {
  const system = textOf(messages.find((m) => m.role === 'system'));
  const user = textOf([...messages].reverse().find((m) => m.role === 'user'));
  const idea = readIdea(ideaFrom(user));
  const files = (paths: string[]) =>
    paths
      .map((p) => [p, demoFile(p, idea)] as const)
      .filter((e): e is readonly [string, string] => e[1] !== undefined)
      .map(([p, c]) => block(p, c))
      .join('\n\n');

  if (/Planning engine/.test(system)) {
    return `${idea.title}: ${idea.summary}\n\nA static web app: one page with a list the user manages, saved in localStorage.\n\n${DEMO_FILES.map((f) => `FILE: ${f.path} - ${f.purpose}`).join('\n')}`;
  }
  if (/Polishing engine/.test(system)) return 'UNCHANGED';
  const completion = /previous answer for (\S+) was incomplete/.exec(user);
  if (completion) return files([completion[1]!]);
  const single = /Write the complete file (\S+) \(/.exec(user);
  if (single) return `Here is ${single[1]}:\n\n${files([single[1]!])}`;
  if (/Checking engine/.test(system)) {
    const mentioned = DEMO_FILES.map((f) => f.path).filter((p) => user.includes(`${p}:`));
    return files(mentioned.length > 0 ? mentioned : DEMO_FILES.map((f) => f.path));
  }
  if (/prompt engineer|merge prompt proposals/i.test(system)) {
    const focus = idea.keywords.slice(0, 3).join(', ');
    return `${idea.summary}\n\nBuild it as a responsive single-page web app focused on ${focus}: a clear header, a form to add items, a list to tick off and remove them, and data kept in localStorage so nothing is lost on reload. Include a README that explains how to run it.`;
  }
  return files(DEMO_FILES.map((f) => f.path));
}
