import { formatCents, MONTHLY_GRANT_CENTS, WELCOME_BONUS_CENTS } from '@wolfpack/core';
import { Gift, Receipt, RotateCcw, ShieldCheck } from 'lucide-react';
import { formatTokenPrice } from '../lib/pricing';

/** The How Credits Work explainer of Settings (companion §2), with the server's token price. */
export function HowCreditsWork({ pricePer1kTokensCents }: { pricePer1kTokensCents: number }) {
  const points = [
    {
      icon: Gift,
      title: 'Free credits to start',
      text: `A new account gets a ${formatCents(WELCOME_BONUS_CENTS)} welcome bonus and ${formatCents(MONTHLY_GRANT_CENTS)} of free credits every month. The monthly grant resets on the 1st; what is left of it does not carry over.`,
    },
    {
      icon: Receipt,
      title: 'Pay for the tokens you use',
      text: `Each engine call of a run or an AI Enhance is billed from the tokens it used, at ${formatTokenPrice(pricePer1kTokensCents)}, rounded up to the cent.`,
    },
    {
      icon: ShieldCheck,
      title: 'No runaway costs',
      text: 'Each stage sets aside its worst-case cost from your balance, then pays only what it really used; a stage that calls no engine costs nothing. If your balance cannot cover a stage, the run stops it, charges nothing for it, keeps what it made, and can be resumed after you add credits.',
    },
    {
      icon: RotateCcw,
      title: 'Pay for proof, not for failed fixes',
      text: 'When Proven Code still fails after its repair rounds, those rounds are refunded.',
    },
  ];
  return (
    <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="how-credits-work">
      {points.map(({ icon: Icon, title, text }) => (
        <li key={title} className="flex gap-3">
          <span className="grid h-8 w-8 shrink-0 place-items-center rounded-lg bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
            <Icon className="h-4 w-4" aria-hidden />
          </span>
          <div>
            <p className="text-sm font-medium">{title}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
