// koa-session 7 ships no augmentation of Koa's context; this is the part Wolfpack uses.
declare module 'koa' {
  interface ExtendableContext {
    session: WolfpackSession | null;
  }
}

export interface WolfpackSession {
  userId?: string;
  /** Last time the idle deadline was pushed back (ms since epoch). */
  lastSeen?: number;
  /** When the user signed in (ms since epoch); the absolute timeout counts from here. */
  createdAt?: number;
  isNew: boolean;
  /** Destroys the stored session and saves its data under a new random key. */
  regenerate(): Promise<void>;
  save(): Promise<void>;
  /** Saves it if it changed (or removes it if set to null): autoCommit is off, see middleware/commit-session.ts. */
  manuallyCommit(): Promise<void>;
  [key: string]: unknown;
}
