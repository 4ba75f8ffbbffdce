import { TOAST_DURATION_MS, useToast } from '../hooks/use-toast';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';

/** Swipe distance in pixels after which a toast is dismissed (spec core §9). */
const SWIPE_THRESHOLD = 50;

/** Renders the toast store; mount once near the root. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD}>
      {toasts.map(({ id, title, description, action, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
          {...(duration === undefined ? {} : { duration })}
        >
          {/* Toasts quote names people typed: an unbroken one wraps inside the box instead of spilling out. */}
          <div className="grid min-w-0 grid-cols-1 gap-1 wrap-anywhere">
            {title ? <ToastTitle data-testid="toast-title">{title}</ToastTitle> : null}
            {description ? <ToastDescription data-testid="toast-description">{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={['F8']} />
    </ToastProvider>
  );
}
