// How the password hash costs compare: the scrypt parameters Wolfpack uses (N=2^17) against
// Node's default (N=2^14), measured side by side. The ratio is the extra work an attacker pays per
// guess; the absolute time is what one sign-in costs the server.
import { scrypt } from 'node:crypto';
import { PasswordHasher } from '../src/services/accounts/password.js';

const ROUNDS = 5;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < ROUNDS; i++) await fn();
  return (performance.now() - start) / ROUNDS;
}

const nodeDefault = () =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt('correct-horse', 'salt-salt-salt-1', 64, (e, k) => (e ? reject(e) : resolve(k))),
  );
const hasher = new PasswordHasher();
const stored = await hasher.hash('correct-horse');
const baseline = await time(nodeDefault);
const ours = await time(() => hasher.verify('correct-horse', stored));

console.log('| candidate | ms per hash | ratio to Node default |');
console.log('| --- | ---: | ---: |');
console.log(`| scrypt N=2^14 (Node default) | ${baseline.toFixed(1)} | 1.0 |`);
console.log(`| scrypt N=2^17 (Wolfpack) | ${ours.toFixed(1)} | ${(ours / baseline).toFixed(1)} |`);
