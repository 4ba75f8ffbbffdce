/**
 * The offline demo engines' project: a small, working static web app assembled from the idea's
 * own words (no AI). Deterministic: the same idea gives the same files.
 */
import { escapeHtml } from '../util/escape-html.js';

const STOPWORDS = new Set(
  'a an and app application are as at be build create for from has have i in into is it its make me my of on or our that the their them this to using want we web website which will with would you your can should please simple small site page tool'.split(
    ' ',
  ),
);

export interface DemoIdea {
  title: string;
  slug: string;
  summary: string;
  keywords: string[];
}

export function readIdea(idea: string): DemoIdea {
  const firstLine = idea.trim().split('\n')[0]?.trim() || 'Untitled project';
  const clipped = firstLine.length > 60 ? `${firstLine.slice(0, 57).trimEnd()}…` : firstLine;
  const title = clipped.charAt(0).toUpperCase() + clipped.slice(1);
  const keywords: string[] = [];
  for (const word of idea.toLowerCase().match(/[\p{L}][\p{L}\p{N}-]{2,}/gu) ?? []) {
    if (!STOPWORDS.has(word) && !keywords.includes(word)) keywords.push(word);
    if (keywords.length === 6) break;
  }
  if (keywords.length === 0) keywords.push('ideas', 'notes', 'tasks');
  const slug = (keywords.slice(0, 3).join('-') || 'wolfpack-demo').replace(/[^a-z0-9-]/g, '').slice(0, 40) || 'wolfpack-demo';
  return { title, slug, summary: idea.trim().replace(/\s+/g, ' ').slice(0, 280), keywords };
}

export const DEMO_FILES: Array<{ path: string; purpose: string }> = [
  { path: 'index.html', purpose: 'the page: header, an add form and the list' },
  { path: 'styles.css', purpose: 'layout and colours' },
  { path: 'app.js', purpose: 'the list logic, kept in localStorage' },
  { path: 'README.md', purpose: 'what the project is and how to run it' },
];

export function demoFile(path: string, idea: DemoIdea): string | undefined {
  switch (path) {
    case 'index.html':
      return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(idea.title)}</title>
    <link rel="stylesheet" href="styles.css" />
  </head>
  <body>
    <main class="app">
      <header>
        <h1>${escapeHtml(idea.title)}</h1>
        <p class="summary">${escapeHtml(idea.summary)}</p>
      </header>
      <form id="add-form" class="add-form">
        <label for="new-item" class="visually-hidden">New item</label>
        <input id="new-item" name="item" placeholder="Add something about ${escapeHtml(idea.keywords[0] ?? 'your idea')}" autocomplete="off" required />
        <button type="submit">Add</button>
      </form>
      <ul id="items" class="items" aria-live="polite"></ul>
      <p id="empty" class="empty">Nothing here yet. Add the first item above.</p>
    </main>
    <script src="app.js"></script>
  </body>
</html>
`;
    case 'styles.css':
      return `:root {
  --accent: #10b981;
  --text: #1f2937;
  --muted: #6b7280;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif;
}

body {
  margin: 0;
  background: #f9fafb;
  color: var(--text);
}

.app {
  max-width: 40rem;
  margin: 3rem auto;
  padding: 0 1rem;
}

.summary {
  color: var(--muted);
}

.add-form {
  display: flex;
  gap: 0.5rem;
  margin: 1.5rem 0;
}

.add-form input {
  flex: 1;
  padding: 0.6rem 0.8rem;
  border: 1px solid #d1d5db;
  border-radius: 0.5rem;
}

.add-form button,
.items button {
  border: 0;
  border-radius: 0.5rem;
  padding: 0.6rem 1rem;
  background: var(--accent);
  color: white;
  cursor: pointer;
}

.items {
  list-style: none;
  padding: 0;
}

.items li {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  padding: 0.6rem 0.8rem;
  margin-bottom: 0.5rem;
  background: white;
  border-radius: 0.5rem;
  box-shadow: 0 1px 2px rgb(0 0 0 / 0.06);
}

.items li.done span {
  text-decoration: line-through;
  color: var(--muted);
}

.items span {
  flex: 1;
}

.items button {
  background: #ef4444;
  padding: 0.3rem 0.7rem;
}

.empty {
  color: var(--muted);
}

.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
}
`;
    case 'app.js':
      return `// ${idea.title}: a list kept in the browser's localStorage.
const STORAGE_KEY = ${JSON.stringify(`${idea.slug}-items`)};
const STARTERS = ${JSON.stringify(idea.keywords.slice(0, 3).map((k) => `Plan the ${k}`))};

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    if (Array.isArray(saved)) return saved;
  } catch {
    // A damaged entry starts the list afresh.
  }
  return STARTERS.map((text, index) => ({ id: index + 1, text, done: false }));
}

let items = load();

function save() {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(items));
}

function render() {
  const list = document.getElementById('items');
  list.replaceChildren(
    ...items.map((item) => {
      const li = document.createElement('li');
      li.className = item.done ? 'done' : '';
      const checkbox = document.createElement('input');
      checkbox.type = 'checkbox';
      checkbox.checked = item.done;
      checkbox.addEventListener('change', () => toggle(item.id));
      const text = document.createElement('span');
      text.textContent = item.text;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = 'Remove';
      remove.addEventListener('click', () => removeItem(item.id));
      li.append(checkbox, text, remove);
      return li;
    }),
  );
  document.getElementById('empty').hidden = items.length > 0;
}

function addItem(text) {
  const nextId = items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
  items = [...items, { id: nextId, text, done: false }];
  save();
  render();
}

function toggle(id) {
  items = items.map((item) => (item.id === id ? { ...item, done: !item.done } : item));
  save();
  render();
}

function removeItem(id) {
  items = items.filter((item) => item.id !== id);
  save();
  render();
}

document.getElementById('add-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = document.getElementById('new-item');
  const text = input.value.trim();
  if (text) addItem(text);
  input.value = '';
  input.focus();
});

render();
`;
    case 'README.md':
      return `# ${idea.title}

${idea.summary}

Built by Wolfpack's demo engines: a small static web app with a list you can add to, tick off and
clear, kept in your browser's localStorage.

## Run it

Open \`index.html\` in a browser, or serve the folder:

\`\`\`sh
python3 -m http.server 8000
\`\`\`

## Files

${DEMO_FILES.map((f) => `- \`${f.path}\`: ${f.purpose}`).join('\n')}

Configure real AI engines on the Wolfpack server (OPENAI_API_KEY, ANTHROPIC_API_KEY or
WOLFPACK_ENGINES) to get a project written for your idea.
`;
    default:
      return undefined;
  }
}
