/**
 * Reads the first line of stdin (for `--password-stdin`) without waiting for the end of input, so
 * `printf 'secret\n' | wolfpack login …` and a here-doc that keeps going both work. The trailing
 * CR/LF is not part of the line; nothing else is trimmed, since spaces may belong to a password.
 */
export async function readFirstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: string[] = [];
  stdin.setEncoding('utf8');
  try {
    for await (const chunk of stdin) {
      const text = String(chunk);
      const newline = text.indexOf('\n');
      if (newline !== -1) {
        chunks.push(text.slice(0, newline));
        break;
      }
      chunks.push(text);
    }
  } finally {
    // Leaving the loop early destroys a real stdin; a test's PassThrough just gets paused.
    stdin.pause();
  }
  return chunks.join('').replace(/\r$/, '');
}
