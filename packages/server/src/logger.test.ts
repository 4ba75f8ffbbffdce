import { describe, expect, it } from 'vitest';
import { describeError } from './logger.js';

describe('describeError', () => {
  it('keeps the reason and SQLSTATE of a database error, never the statement with the user\'s values', () => {
    const error = Object.assign(new Error(`insert into "folders" ("id", "name") values ('f1', 'my secret folder name') - invalid byte sequence for encoding "UTF8": 0x00`), {
      name: 'DriverException',
      sqlState: '22021',
    });
    const text = String(describeError(error));
    expect(text).toMatch(/^DriverException \(SQLSTATE 22021\): invalid byte sequence for encoding "UTF8": 0x00\n/);
    expect(text).not.toContain('my secret folder name');
    expect(text).not.toContain('insert into');
  });

  it('prefers the driver\'s own message when the error carries it, and hides a statement it cannot split', () => {
    const cause = Object.assign(new Error('value too long for type character varying(100)'), { code: '22001' });
    const wrapped = Object.assign(new Error(`update "users" set "username" = 'alice-the-great' where "id" = 1`), { name: 'DriverException', code: '22001', cause });
    expect(String(describeError(wrapped))).toMatch(/^DriverException \(SQLSTATE 22001\): value too long for type character varying\(100\)\n/);
    const bare = new Error(`select * from "users" where "username" = 'bob-secret'`);
    expect(String(describeError(bare))).toMatch(/^Error: a database statement failed\n/);
    expect(String(describeError(bare))).not.toContain('bob-secret');
  });

  it('leaves other errors as they are', () => {
    const plain = new TypeError('x is not a function');
    expect(describeError(plain)).toBe(plain);
    expect(describeError('a string')).toBe('a string');
  });
});
