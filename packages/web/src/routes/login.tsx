import { credentials, type Credentials } from '@wolfpack/core';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { useInvalidateMe, useLogin } from '../api/queries';
import { AuthCard } from '../components/auth-card';
import { Button } from '../components/button';
import { InputField } from '../components/input-field';
import { useFormErrors } from '../hooks/use-form-errors';
import { toast } from '../hooks/use-toast';

/** Sign-in (spec core §2, §4, §8). */
export function LoginPage() {
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const { errors, validate, revalidate } = useFormErrors(credentials);
  const login = useLogin();
  const invalidateMe = useInvalidateMe();
  const navigate = useNavigate();
  const busy = login.isPending;

  const change = (field: keyof Credentials) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    revalidate(next);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = validate(values);
    if (!data || busy) return;
    try {
      const reply = await login.mutateAsync(data);
      if (reply.success) {
        toast({ title: 'Success', description: 'You have successfully logged in.' });
        await invalidateMe();
        navigate('/');
      } else {
        toast({ variant: 'destructive', title: 'Error', description: reply.error || 'Login failed' });
      }
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: describeRequestFailure(error, { failed: 'Login failed', exception: 'An error occurred during login' }),
      });
    }
  };

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
