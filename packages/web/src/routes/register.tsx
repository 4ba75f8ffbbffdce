import { malformedReferralCodeMessage, registerForm } from '@wolfpack/core';
import { LoaderCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useRegister } from '../api/queries';
import { useReferralCodeKnown } from '../api/referrals';
import { AuthCard } from '../components/auth-card';
import { Button } from '../components/button';
import { InputField } from '../components/input-field';
import { useAuthForm } from '../hooks/use-auth-form';
import { malformedReferralStore, referrerCodeStore } from '../lib/referral-code';

/** Account creation (spec core §2, §4, §5, §8). confirmPassword is checked here and never sent. */
export function RegisterPage() {
  const referralCode = referrerCodeStore.use();
  const malformedCode = malformedReferralStore.use();
  // Nothing is said about a friend until the server knows the code (a typed or stale link).
  const codeKnown = useReferralCodeKnown(referralCode);
  const { values, change, errors, busy, onSubmit } = useAuthForm(registerForm, { username: '', password: '', confirmPassword: '' }, useRegister(referralCode), {
    success: 'Your account has been created successfully.',
    failed: 'Registration failed',
    exception: 'An error occurred during registration',
  });

  return (
    <AuthCard
      title="Join the Pack"
      subtitle="Create your Wolfpack account"
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-brand-strong hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        {referralCode && codeKnown === true ? (
          <p className="rounded-lg bg-brand/10 px-3 py-2 text-sm text-brand-strong" data-testid="register-referral">
            Invited with code <span className="font-mono font-semibold">{referralCode}</span>: your friend earns credits when you join and build.
          </p>
        ) : referralCode && codeKnown === false ? (
          <p className="rounded-lg bg-zinc-100 px-3 py-2 text-sm text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" data-testid="register-referral-unknown">
            The invitation code <span className="font-mono font-semibold">{referralCode}</span> is not known here, so nobody is credited when you join. Check the
            link with whoever sent it; you can create your account all the same.
          </p>
        ) : null}
        {malformedCode !== null ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-100" role="alert" data-testid="register-referral-malformed">
            {malformedReferralCodeMessage(malformedCode)} Nobody is credited for this link; check it with whoever sent it. You can create your account all the same.
          </p>
        ) : null}
        <InputField
          label="Username"
          name="username"
          autoComplete="username"
          autoFocus
          value={values.username}
          onChange={(e) => change('username')(e.target.value)}
          error={errors.username}
          disabled={busy}
        />
        <InputField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          placeholder="min. 8 characters"
          value={values.password}
          onChange={(e) => change('password')(e.target.value)}
          error={errors.password}
          disabled={busy}
        />
        <InputField
          label="Confirm Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => change('confirmPassword')(e.target.value)}
          error={errors.confirmPassword}
          disabled={busy}
        />
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {busy ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
    </AuthCard>
  );
}
