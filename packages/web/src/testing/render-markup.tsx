/**
 * Renders a component to HTML in Node, inside the router and query client the app gives it, for
 * tests of what a screen says in each state (no browser: interaction is for the e2e specs).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';

export function renderMarkup(element: ReactElement): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>{element}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The text inside every element carrying `data-testid="id"` (tags inside stripped, entities kept). */
export function textsOf(html: string, testId: string): string[] {
  const texts: string[] = [];
  const open = new RegExp(`<([a-z0-9]+)[^>]*data-testid="${testId}"[^>]*>`, 'g');
  for (let match = open.exec(html); match; match = open.exec(html)) {
    const start = match.index + match[0].length;
    texts.push(html.slice(start, closingTag(html, match[1]!, start)).replace(/<[^>]+>/g, ''));
  }
  return texts;
}

/** Where the element of `tag` opened just before `from` closes, counting nested ones of the same tag. */
function closingTag(html: string, tag: string, from: number): number {
  const tags = new RegExp(`<(/?)${tag}(?=[\\s>])[^>]*>`, 'g');
  tags.lastIndex = from;
  let depth = 1;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    depth += match[1] === '/' ? -1 : 1;
    if (depth === 0) return match.index;
  }
  return html.length;
}
