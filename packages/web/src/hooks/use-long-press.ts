/**
 * Long press opens a context menu (spec core §9: 700 ms). Radix's ContextMenu already does this
 * for touch and pen; this hook adds the same for a mouse held down, by sending the element the
 * `contextmenu` event a right click would, at the pointer's position. The click that ends such a
 * press is swallowed, so holding a folder opens its menu without also selecting it.
 */
import { useCallback, useEffect, useRef, type MouseEvent, type PointerEvent } from 'react';

export const LONG_PRESS_MS = 700;
/** A pointer that moves further than this while pressed is dragging or scrolling, not holding. */
export const LONG_PRESS_SLOP_PX = 8;

export function openContextMenuAt(element: Element, clientX: number, clientY: number): void {
  element.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX, clientY, button: 2 }));
}

export function useLongPress(delayMs: number = LONG_PRESS_MS) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const fired = useRef(false);

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const onPointerDown = useCallback(
    (event: PointerEvent<HTMLElement>) => {
      // Touch and pen: Radix's own long press. Only the main button starts one.
      if (event.pointerType !== 'mouse' || event.button !== 0) return;
      cancel();
      fired.current = false;
      const element = event.currentTarget;
      const { clientX, clientY } = event;
      start.current = { x: clientX, y: clientY };
      timer.current = setTimeout(() => {
        timer.current = undefined;
        fired.current = true;
        openContextMenuAt(element, clientX, clientY);
      }, delayMs);
    },
    [cancel, delayMs],
  );

  const onPointerMove = useCallback(
    (event: PointerEvent<HTMLElement>) => {
      const origin = start.current;
      if (!origin) return;
      if (Math.hypot(event.clientX - origin.x, event.clientY - origin.y) > LONG_PRESS_SLOP_PX) cancel();
    },
    [cancel],
  );

  const onClickCapture = useCallback((event: MouseEvent<HTMLElement>) => {
    if (!fired.current) return;
    fired.current = false;
    event.preventDefault();
    event.stopPropagation();
  }, []);

  return {
    onPointerDown,
    onPointerMove,
    onPointerUp: cancel,
    onPointerLeave: cancel,
    onPointerCancel: cancel,
    onDragStart: cancel,
    onClickCapture,
  };
}
