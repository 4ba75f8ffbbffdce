import { describe, expect, it } from 'vitest';
import { PASSWORD_COST, PasswordHasher } from './password.js';

describe('PasswordHasher', () => {
  const cheap = new PasswordHasher({ N: 2 ** 10, r: 8, p: 1 });

  it('records its cost in the hash and verifies the password, not another', async () => {
    const stored = await cheap.hash('correct-horse');
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await cheap.verify('correct-horse', stored)).toBe(true);
    expect(await cheap.verify('correct-horsE', stored)).toBe(false);
  });

  it('verifies a hash made at another cost by the cost the hash records', async () => {
    const stored = await cheap.hash('correct-horse');
    expect(await new PasswordHasher(PASSWORD_COST).verify('correct-horse', stored)).toBe(true);
    expect(await new PasswordHasher({ N: 2 ** 11, r: 8, p: 1 }).verify('correct-horse', stored)).toBe(true);
  });

  it('never matches a malformed hash', async () => {
    for (const stored of ['', 'scrypt$1024$8$1$abc', 'bcrypt$1024$8$1$a$b', '!disabled']) expect(await cheap.verify('x', stored)).toBe(false);
  });

  it('compares against one dummy hash, made once, at its own cost', async () => {
    const first = cheap.dummyHash();
    expect(cheap.dummyHash()).toBe(first);
    expect(await first).toMatch(/^scrypt\$1024\$/);
  });

  it('uses OWASP\'s cost unless told otherwise', () => {
    expect(PASSWORD_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });
});
