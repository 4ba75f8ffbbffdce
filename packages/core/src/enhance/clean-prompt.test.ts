import { describe, expect, it } from 'vitest';
import { cleanPromptOutput } from './clean-prompt.js';

describe('cleanPromptOutput', () => {
  it.each([
    ['Build a todo app.', 'Build a todo app.'],
    ["Here's the enhanced prompt:\nBuild a todo app.", 'Build a todo app.'],
    ['**Enhanced Prompt**\nBuild a todo app.', 'Build a todo app.'],
    ['```\nBuild a todo app.\n```', 'Build a todo app.'],
    ['```text\nBuild a todo app.\nWith tags.\n```', 'Build a todo app.\nWith tags.'],
    ['"Build a todo app."', 'Build a todo app.'],
    ['Final prompt: Build a todo app.', 'Build a todo app.'],
    ['  \n ', ''],
  ])('%j -> %j', (input, expected) => {
    expect(cleanPromptOutput(input)).toBe(expected);
  });

  it('keeps a first line that is content, not an announcement', () => {
    expect(cleanPromptOutput('Here is what the app does: it tracks habits.\nIt has charts.')).toBe(
      'Here is what the app does: it tracks habits.\nIt has charts.',
    );
  });
});
