/**
 * The shared half of the sign-in and account-creation forms (spec core §4, §8): field values
 * validated with a core schema, a busy state while the request runs, the success toast and the
 * move to /, or a destructive toast with the server's sentence or the form's own wording.
 */
import type { AuthReply, Credentials } from '@wolfpack/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { describeRequestFailure } from '../api/client';
import { useInvalidateMe } from '../api/queries';
import { useFormErrors } from './use-form-errors';
import { toast } from './use-toast';

export interface AuthFormWording {
  /** Description of the success toast. */
  success: string;
  /** When the server says no without a sentence. */
  failed: string;
  /** When the request itself throws without a message. */
  exception: string;
}

export function useAuthForm<T extends Credentials>(
  schema: z.ZodType<T, T>,
  initial: T,
  mutation: { mutateAsync: (body: Credentials) => Promise<AuthReply>; isPending: boolean },
  wording: AuthFormWording,
) {
  const [values, setValues] = useState<T>(initial);
  const { errors, validate, revalidate } = useFormErrors(schema);
  const invalidateMe = useInvalidateMe();
  const navigate = useNavigate();
  const busy = mutation.isPending;

  const change = (field: keyof T & string) => (value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    revalidate(next);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = validate(values);
    if (!data || busy) return;
    try {
      // Only the credentials are sent (confirmPassword stays in the form).
      const reply = await mutation.mutateAsync({ username: data.username, password: data.password });
      if (reply.success) {
        toast({ title: 'Success', description: wording.success });
        // Both calls sign the user in; refresh the header before leaving the form.
        await invalidateMe();
        navigate('/');
      } else {
        toast({ variant: 'destructive', title: 'Error', description: reply.error || wording.failed });
      }
    } catch (error) {
      toast({ variant: 'destructive', title: 'Error', description: describeRequestFailure(error, wording) });
    }
  };

  return { values, change, errors, busy, onSubmit };
}
