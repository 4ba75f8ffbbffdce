import { registerForm, type RegisterForm } from '@wolfpack/core';
import { LoaderCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { describeRequestFailure } from '../api/client';
import { useInvalidateMe, useRegister } from '../api/queries';
import { AuthCard } from '../components/auth-card';
import { Button } from '../components/button';
import { InputField } from '../components/input-field';
import { useFormErrors } from '../hooks/use-form-errors';
import { toast } from '../hooks/use-toast';

const wording = { failed: 'Registration failed', exception: 'An error occurred during registration' };

/** Account creation (spec core §2, §4, §5, §8). confirmPassword is checked here and never sent. */
export function RegisterPage() {
  const [values, setValues] = useState<RegisterForm>({ username: '', password: '', confirmPassword: '' });
  const { errors, validate, revalidate } = useFormErrors(registerForm);
  const register = useRegister();
  const invalidateMe = useInvalidateMe();
  const navigate = useNavigate();
  const busy = register.isPending;

  const change = (field: keyof RegisterForm) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    revalidate(next);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = validate(values);
    if (!data || busy) return;
    try {
      const reply = await register.mutateAsync({ username: data.username, password: data.password });
      if (reply.success) {
        toast({ title: 'Success', description: 'Your account has been created successfully.' });
        // Registration signs the new user in; refresh the header before leaving the form.
        await invalidateMe();
        navigate('/');
      } else {
        toast({ variant: 'destructive', title: 'Error', description: reply.error || wording.failed });
      }
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: describeRequestFailure(error, wording) });
    }
  };

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
