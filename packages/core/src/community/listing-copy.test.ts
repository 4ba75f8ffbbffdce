import { describe, expect, it } from 'vitest';
import { listingCopyIdea } from './listing-copy.js';

describe('listingCopyIdea', () => {
  it('does not repeat a summary that defaulted to the one-line idea', () => {
    const idea = 'a pomodoro timer with a 25/5 cycle and a sound at the end';
    expect(listingCopyIdea(idea, idea)).toBe(idea);
    expect(listingCopyIdea(` ${idea}`, `${idea}\n`)).toBe(idea);
  });

  it('keeps the whole line when the title was cut from it', () => {
    const idea = `a pomodoro timer ${'that does a lot of things '.repeat(6)}`.trim();
    expect(listingCopyIdea(idea.slice(0, 120), idea)).toBe(idea);
  });

  it('keeps a summary that already opens with the title as it is', () => {
    expect(listingCopyIdea('Todo app', 'Todo app\nKeeps a list of things to do.')).toBe('Todo app\nKeeps a list of things to do.');
  });

  it('puts the title above a summary that says something else', () => {
    expect(listingCopyIdea('Todo app', 'Keeps a list of things to do.')).toBe('Todo app\n\nKeeps a list of things to do.');
    expect(listingCopyIdea('Todo app', '')).toBe('Todo app');
    expect(listingCopyIdea('', 'Keeps a list.')).toBe('Keeps a list.');
    // A short title that happens to open the summary is still the project's title line.
    expect(listingCopyIdea('Todo', 'Todo lists for families')).toBe('Todo\n\nTodo lists for families');
  });
});
