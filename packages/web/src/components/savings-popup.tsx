import { formatDollars, formatHours } from '@wolfpack/core';
import { Gift } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useSavingsPopup, type SavingsPopupTiming } from '../hooks/use-savings-popup';
import { useServerSavings } from '../hooks/use-server-savings';
import { ZERO_TOTALS } from '../lib/savings-counters';
import { Button, buttonClass } from './button';
import { Modal, ModalActions } from './modal';

/** The referral offer of the popup (spec core §9): $15 credit per friend who subscribes. */
export const SAVINGS_POPUP_OFFER = 'Get $15 credit for every friend who subscribes.';

/**
 * The build screen's savings popup: what the pack saved so far, and the Pack Perks offer. Its
 * figures are the server's, the same as the savings card beside it (every run, Lab included).
 */
export function SavingsPopup({ timing }: { timing?: SavingsPopupTiming }) {
  const total = useServerSavings().savings?.allTime ?? ZERO_TOTALS;
  const { open, setOpen } = useSavingsPopup(total.runs, timing);
  return (
    <Modal
      open={open}
      onOpenChange={setOpen}
      title="The pack is saving you time"
      description={
        <>
          So far you saved <strong data-testid="popup-time">{formatHours(total.timeSavedHours)}</strong> and{' '}
          <strong data-testid="popup-cost">{formatDollars(total.costSavedDollars)}</strong> over {total.runs}{' '}
          {total.runs === 1 ? 'run' : 'runs'}.
        </>
      }
      icon={<Gift className="h-5 w-5" aria-hidden />}
      testId="savings-popup"
    >
      <p className="mt-4 rounded-lg bg-brand/10 px-4 py-3 text-sm font-medium">
        {SAVINGS_POPUP_OFFER} Share your link through Pack Perks.
      </p>
      <ModalActions>
        <Button variant="outline" onClick={() => setOpen(false)}>
          Maybe later
        </Button>
        <Link to="/referrals" onClick={() => setOpen(false)} className={buttonClass('primary', 'md')} data-testid="popup-pack-perks">
          Open Pack Perks
        </Link>
      </ModalActions>
    </Modal>
  );
}
