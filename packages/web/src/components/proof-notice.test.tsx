/** What the build screen's Proven Code notice says; showing it once and dismissing it are in e2e/proof-notice.spec.ts. */
import { describe, expect, it } from 'vitest';
import { renderMarkup, textsOf } from '../testing/render-markup';
import { ProofNotice } from './proof-notice';

const NOTICE =
  'Proven Code cannot run generated code on this server (bubblewrap and Chromium are not installed), so verdicts are "not proven". Fix: sudo apt-get install bubblewrap chromium';

describe('ProofNotice', () => {
  it("shows the server's sentence whole, with the fix as code", () => {
    const html = renderMarkup(
      <ProofNotice proof={{ sandbox: false, browser: false, reason: 'bubblewrap and Chromium are not installed', fix: 'sudo apt-get install bubblewrap chromium', notice: NOTICE }} />,
    );
    expect(textsOf(html, 'proof-notice-text')).toEqual([NOTICE.replaceAll('"', '&quot;')]);
    expect(html).toContain('>sudo apt-get install bubblewrap chromium</code>');
    expect(html).toContain('role="note"');
  });

  it('says nothing when Proven Code has what it needs, or the server does not say', () => {
    expect(renderMarkup(<ProofNotice proof={{ sandbox: true, browser: true, notice: null }} />)).toBe('');
    expect(renderMarkup(<ProofNotice proof={undefined} />)).toBe('');
  });

  it('a sentence without a fix is shown as it is', () => {
    const html = renderMarkup(<ProofNotice proof={{ sandbox: false, browser: true, notice: 'Proven Code cannot run generated code here.' }} />);
    expect(textsOf(html, 'proof-notice-text')).toEqual(['Proven Code cannot run generated code here.']);
    expect(html).not.toContain('<code');
  });
});
