/** Helpers both adapters use to turn ChatMessage content into their wire format. */
import type { ChatMessage, ContentPart, EngineUsage } from './engine.js';

/** Stands in for an image the engine cannot read, so the model knows something was there. */
export const IMAGE_DROPPED_NOTE = '[An image was attached here, but this engine cannot see images.]';

export function partsOf(content: ChatMessage['content']): ContentPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The text of a message, images replaced by the note. */
export function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : IMAGE_DROPPED_NOTE)).join('\n');
}

/** Splits `data:image/png;base64,AAAA` into its media type and base64 data; undefined if it isn't one. */
export function parseDataUrl(dataUrl: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s.exec(dataUrl);
  if (!match?.[1] || match[2] === undefined) return undefined;
  return { mediaType: match[1].toLowerCase(), data: match[2] };
}

/** About four characters per token: the usual rule of thumb for English text and code. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Usage estimated from text, for endpoints that report none. Images are not counted. */
export function estimateUsage(messages: readonly ChatMessage[], output: string): EngineUsage {
  const inputChars = messages.reduce((sum, message) => sum + textOf(message.content).length, 0);
  const inputTokens = estimateTokens(inputChars);
  const outputTokens = estimateTokens(output.length);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** host[:port] of a base URL, for error messages (never the path, which may hold a token). */
export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return 'its endpoint';
  }
}
