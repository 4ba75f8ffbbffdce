/**
 * A tiny global toast store (the shadcn/ui pattern): `toast()` works from anywhere, `useToast()`
 * subscribes a component. Radix renders the toasts; this module only keeps the list (spec core §9:
 * one at a time; states added, updated, dismissed, removed).
 */
import { useSyncExternalStore, type ReactElement, type ReactNode } from 'react';

/** Only one toast is visible; a new one replaces the current one. */
export const TOAST_LIMIT = 1;
/** How long a toast shows before it closes by itself. */
export const TOAST_DURATION_MS = 5000;
/** A dismissed toast stays in the list this long so Radix can play its closing animation. */
export const TOAST_REMOVE_DELAY_MS = 1000;

export type ToastVariant = 'default' | 'destructive';

/** What a caller passes to {@link toast}. */
export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  /** An optional action, usually a `<ToastAction altText="...">` element. */
  action?: ReactElement;
  /** @default 'default' */
  variant?: ToastVariant;
  /** @default TOAST_DURATION_MS */
  duration?: number;
}

export interface ToasterToast extends ToastInput {
  id: string;
  open: boolean;
}

type Action =
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

interface State {
  toasts: ToasterToast[];
}

let count = 0;
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return String(count);
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId);
    dispatch({ type: 'REMOVE_TOAST', toastId });
  }, TOAST_REMOVE_DELAY_MS);
  removeTimeouts.set(toastId, timeout);
}

/** Pure state transition; exported for tests. */
export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'ADD_TOAST':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((t) =>
          action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t,
        ),
      };
    case 'REMOVE_TOAST':
      return {
        toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId),
      };
  }
}

const listeners = new Set<() => void>();
let memoryState: State = { toasts: [] };

function dispatch(action: Action): void {
  if (action.type === 'DISMISS_TOAST') {
    // Side effect kept out of the reducer: closed toasts are removed after their exit animation.
    for (const t of memoryState.toasts) {
      if (action.toastId === undefined || t.id === action.toastId) scheduleRemoval(t.id);
    }
  }
  memoryState = reducer(memoryState, action);
  for (const listener of listeners) listener();
}

/** Shows a toast; returns handles to update or dismiss it. */
export function toast(input: ToastInput) {
  const id = genId();
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id });
  const update = (next: ToastInput) => dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } });
  dispatch({ type: 'ADD_TOAST', toast: { ...input, id, open: true } });
  return { id, dismiss, update };
}

/** Closes one toast, or all of them without an id. */
export function dismissToast(toastId?: string): void {
  dispatch(toastId === undefined ? { type: 'DISMISS_TOAST' } : { type: 'DISMISS_TOAST', toastId });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getSnapshot = () => memoryState;

/** The current toasts plus the imperative helpers. */
export function useToast() {
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: state.toasts, toast, dismiss: dismissToast };
}
