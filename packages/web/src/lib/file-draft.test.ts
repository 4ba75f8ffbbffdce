import { describe, expect, it } from 'vitest';
import { fileDraftReducer, isDirty, openDraft } from './file-draft';

describe('file draft', () => {
  it('is dirty while the text differs from the version it was opened on', () => {
    const opened = openDraft(3, 'a');
    expect(isDirty(opened)).toBe(false);
    const typed = fileDraftReducer(opened, { type: 'typed', text: 'ab' });
    expect(isDirty(typed)).toBe(true);
    expect(isDirty(fileDraftReducer(typed, { type: 'typed', text: 'a' }))).toBe(false);
  });

  it('saving moves the base to the new version and keeps what was typed meanwhile as unsaved', () => {
    const typed = fileDraftReducer(openDraft(3, 'a'), { type: 'typed', text: 'ab' });
    const saved = fileDraftReducer(typed, { type: 'saved', version: 4, content: 'ab' });
    expect(saved).toMatchObject({ version: 4, base: 'ab', text: 'ab' });
    expect(isDirty(saved)).toBe(false);
    const more = fileDraftReducer(fileDraftReducer(typed, { type: 'typed', text: 'abc' }), { type: 'saved', version: 4, content: 'ab' });
    expect(isDirty(more)).toBe(true);
  });

  it('takes a newer version from the server only when nothing is unsaved', () => {
    const clean = openDraft(3, 'a');
    const moved = fileDraftReducer(clean, { type: 'server', version: 5, content: 'z' });
    expect(moved).toEqual({ version: 5, base: 'z', text: 'z', revision: 1 });
    // The same version read again changes nothing.
    expect(fileDraftReducer(moved, { type: 'server', version: 5, content: 'z' })).toBe(moved);

    const typed = fileDraftReducer(clean, { type: 'typed', text: 'mine' });
    expect(fileDraftReducer(typed, { type: 'server', version: 5, content: 'theirs' })).toBe(typed);
  });

  it('reload drops the unsaved text for the current file and tells the editor to show it', () => {
    const typed = fileDraftReducer(openDraft(3, 'a'), { type: 'typed', text: 'mine' });
    const reloaded = fileDraftReducer(typed, { type: 'reload', version: 5, content: 'theirs' });
    expect(reloaded).toEqual({ version: 5, base: 'theirs', text: 'theirs', revision: 1 });
    expect(isDirty(reloaded)).toBe(false);
  });

  it('a version whose file reads as the editor does needs no new text in the editor', () => {
    expect(fileDraftReducer(openDraft(3, 'a'), { type: 'server', version: 4, content: 'a' }).revision).toBe(0);
  });
});
