import { describe, expect, it } from 'vitest';
import { reducer, TOAST_LIMIT, type ToasterToast } from './use-toast';

const make = (id: string): ToasterToast => ({ id, open: true, title: `Toast ${id}` });

describe('toast reducer', () => {
  it('keeps one toast at a time, newest first', () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: make('1') });
    state = reducer(state, { type: 'ADD_TOAST', toast: make('2') });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('updates, dismisses (closes) and removes', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: make('1') });
    state = reducer(state, { type: 'UPDATE_TOAST', toast: { id: '1', title: 'Changed' } });
    expect(state.toasts[0]?.title).toBe('Changed');
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts[0]?.open).toBe(false);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });
});
