/**
 * Field messages from a zod schema for a small form: validate on submit, then re-validate as the
 * user types so a fixed field's message disappears at once.
 */
import { useCallback, useState } from 'react';
import { z } from 'zod';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/** The first message per field of a failed parse. */
export function firstFieldErrors<T>(error: z.ZodError<T>): FieldErrors<T> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in out)) out[field] = issue.message;
  }
  return out as FieldErrors<T>;
}

export function useFormErrors<S extends z.ZodType<object>>(schema: S) {
  type Values = z.input<S>;
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  const [submitted, setSubmitted] = useState(false);

  /** Parses on submit; returns the data, or undefined after showing the messages. */
  const validate = useCallback(
    (values: Values): z.output<S> | undefined => {
      setSubmitted(true);
      const result = schema.safeParse(values);
      if (result.success) {
        setErrors({});
        return result.data;
      }
      setErrors(firstFieldErrors(result.error as z.ZodError<Values>));
      return undefined;
    },
    [schema],
  );

  /** After the first submit, keeps the messages in step with the typed values. */
  const revalidate = useCallback(
    (values: Values) => {
      if (!submitted) return;
      const result = schema.safeParse(values);
      setErrors(result.success ? {} : firstFieldErrors(result.error as z.ZodError<Values>));
    },
    [schema, submitted],
  );

  return { errors, validate, revalidate };
}
