import { describe, expect, it } from 'vitest';
import { credentials, errorReply, registerForm } from './api.js';
import type { z } from 'zod';

function messages(schema: z.ZodType, value: unknown): Array<{ path: string; message: string }> {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

describe('credentials', () => {
  it('accepts the login payload and trims the username', () => {
    expect(credentials.parse({ username: '  wolf ', password: 'hunter22' })).toEqual({
      username: 'wolf',
      password: 'hunter22',
    });
  });

  it('rejects a short username with the spec message', () => {
    expect(messages(credentials, { username: 'wo', password: 'hunter22' })).toEqual([
      { path: 'username', message: 'Username must be at least 3 characters' },
    ]);
  });

  it('rejects a short password with the spec message', () => {
    expect(messages(credentials, { username: 'wolf', password: 'short' })).toEqual([
      { path: 'password', message: 'Password must be at least 8 characters' },
    ]);
  });
});

describe('registerForm', () => {
  it('accepts matching passwords', () => {
    expect(registerForm.safeParse({ username: 'wolf', password: 'hunter22', confirmPassword: 'hunter22' }).success).toBe(
      true,
    );
  });

  it("puts 'Passwords don't match' on confirmPassword", () => {
    expect(messages(registerForm, { username: 'wolf', password: 'hunter22', confirmPassword: 'hunter23' })).toEqual([
      { path: 'confirmPassword', message: "Passwords don't match" },
    ]);
  });

  it('requires confirmPassword', () => {
    expect(messages(registerForm, { username: 'wolf', password: 'hunter22' }).map((m) => m.path)).toContain(
      'confirmPassword',
    );
  });
});

describe('errorReply', () => {
  it('parses the API error body', () => {
    expect(errorReply.parse({ error: 'Project not found', code: 'NOT_FOUND' })).toEqual({
      error: 'Project not found',
      code: 'NOT_FOUND',
    });
  });
});
