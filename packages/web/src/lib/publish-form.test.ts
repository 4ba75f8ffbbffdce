import { suggestRepoName } from '@wolfpack/core';
import { describe, expect, it } from 'vitest';
import { checkPublishForm, initialPublishForm } from './publish-form';

describe('initialPublishForm', () => {
  it('suggests the name from the first 50 characters of the idea (core §2)', () => {
    const idea = 'A Todo App: tags, due-dates & reminders!\nWith a calendar view';
    const form = initialPublishForm(idea);
    expect(form.repoName).toBe(suggestRepoName(idea));
    expect(form.repoName).toBe('a-todo-app-tags-due-dates-reminders-with-a-ca');
    expect(form.description).toBe('A Todo App: tags, due-dates & reminders!');
    expect(form.isPrivate).toBe(false);
  });

  it('turns whitespace runs into single hyphens and keeps only a-z, 0-9 and hyphens', () => {
    expect(initialPublishForm('Weather   Dashboard  2.0').repoName).toBe('weather-dashboard-20');
    expect(initialPublishForm('').repoName).toBe('');
  });
});

describe('checkPublishForm', () => {
  it("refuses a blank name with the spec's message", () => {
    for (const repoName of ['', '   ']) {
      expect(checkPublishForm({ repoName, description: '', isPrivate: false })).toEqual({
        ok: false,
        problem: { title: 'Repository Name Required', description: 'Please enter a name for your GitHub repository' },
      });
    }
  });

  it('refuses names GitHub would refuse, with the schema sentence', () => {
    const check = checkPublishForm({ repoName: 'my repo', description: '', isPrivate: false });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problem.description).toMatch(/letters, numbers/);
  });

  it('trims and sends the request', () => {
    expect(checkPublishForm({ repoName: ' my-app ', description: ' Hello ', isPrivate: true })).toEqual({
      ok: true,
      request: { repoName: 'my-app', description: 'Hello', isPrivate: true },
    });
  });
});
