import { credentials } from '@wolfpack/core';
import { LoaderCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { useLogin } from '../api/queries';
import { AuthCard } from '../components/auth-card';
import { Button } from '../components/button';
import { InputField } from '../components/input-field';
import { useAuthForm } from '../hooks/use-auth-form';

/** Sign-in (spec core §2, §4, §8). */
export function LoginPage() {
  const { values, change, errors, busy, onSubmit } = useAuthForm(credentials, { username: '', password: '' }, useLogin(), {
    success: 'You have successfully logged in.',
    failed: 'Login failed',
    exception: 'An error occurred during login',
  });

  return (
    <AuthCard
      title="Welcome Back"
      subtitle="Sign in to your Wolfpack account"
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link to="/register" className="font-medium text-brand-strong hover:underline">
            Sign up
          </Link>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
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
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => change('password')(e.target.value)}
          error={errors.password}
          disabled={busy}
        />
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={busy}>
          {busy ? <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden /> : null}
          {busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthCard>
  );
}
