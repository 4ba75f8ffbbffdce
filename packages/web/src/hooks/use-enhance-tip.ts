/**
 * The one-time AI Enhance tip (spec core §2 Home, §5): it opens the first time the user's own
 * typing or dictation brings the prompt to 10 characters, is remembered in the browser, and
 * afterwards the AI Enhance button glows until the user tries it. A prompt filled in by the app
 * (Load Latest Project, autostart) does not open it.
 */
import { useCallback, useState } from 'react';
import { enhanceTipShownStore } from '../lib/build-stores';

/** Characters after which the tip appears. */
export const ENHANCE_TIP_THRESHOLD = 10;

export function useEnhanceTip() {
  const [open, setOpen] = useState(false);
  const [glow, setGlow] = useState(false);

  /** Call with the prompt after each user edit. */
  const onUserInput = useCallback((prompt: string) => {
    if (prompt.trim().length < ENHANCE_TIP_THRESHOLD || enhanceTipShownStore.get()) return;
    enhanceTipShownStore.set(true);
    setOpen(true);
    setGlow(true);
  }, []);

  return { open, setOpen, glow, stopGlow: useCallback(() => setGlow(false), []), onUserInput };
}
