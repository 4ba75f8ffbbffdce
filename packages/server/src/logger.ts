/**
 * A small leveled logger. Messages never include request bodies, cookies, tokens or passwords;
 * errors are printed with their stack on the server only, never sent to clients.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

export function consoleLogger(quiet = false): Logger {
  const stamp = () => new Date().toISOString();
  return {
    info: (message) => {
      if (!quiet) console.log(`${stamp()} info ${message}`);
    },
    warn: (message, error) => console.warn(`${stamp()} warn ${message}`, ...(error ? [error] : [])),
    error: (message, error) => console.error(`${stamp()} error ${message}`, ...(error ? [error] : [])),
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
