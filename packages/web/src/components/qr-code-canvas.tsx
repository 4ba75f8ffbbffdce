/**
 * A QR code drawn on a canvas by the `qrcode` library (companion §9: 140 px). Only the Referrals
 * screen imports it, so the library stays in that screen's lazily loaded chunk.
 */
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';

/** The spec's QR size. */
export const QR_SIZE_PX = 140;

export function QrCodeCanvas({ value, size = QR_SIZE_PX, label }: { value: string; size?: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let cancelled = false;
    // Dark modules on white in both themes: scanners need the contrast.
    QRCode.toCanvas(element, value, { width: size, margin: 1, errorCorrectionLevel: 'M', color: { dark: '#18181b', light: '#ffffff' } })
      .then(() => {
        if (!cancelled) setFailed(false);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value, size]);

  return (
    <div className="shrink-0 rounded-lg border border-zinc-200 bg-white p-1 dark:border-zinc-700" style={{ width: size + 10 }}>
      <canvas
        ref={canvas}
        width={size}
        height={size}
        role="img"
        aria-label={label}
        data-testid="referral-qr"
        data-state={failed ? 'failed' : 'drawn'}
        style={{ width: size, height: size }}
      />
    </div>
  );
}
