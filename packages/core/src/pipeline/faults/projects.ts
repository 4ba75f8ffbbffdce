/**
 * Correct small projects of every kind the pipeline generates. They pass as they are (the corpus
 * checks that, with no repair call), and the fault cases each break one of them in one place.
 */

export const NODE_JS: Record<string, string> = {
  'package.json': `{
  "name": "tip-calculator",
  "version": "1.0.0",
  "type": "module",
  "scripts": { "start": "node src/index.js", "test": "node --test" },
  "dependencies": { "chalk": "^5.3.0" }
}
`,
  'src/index.js': `import chalk from 'chalk';
import { tip, split } from './tip.js';

const [bill = '100', percent = '15', people = '2'] = process.argv.slice(2);
const total = Number(bill) + tip(Number(bill), Number(percent));
console.log(chalk.green(\`Each pays \${split(total, Number(people)).toFixed(2)}\`));
`,
  'src/tip.js': `/** The tip on a bill, rounded to cents. */
export function tip(bill, percent) {
  return Math.round(bill * percent) / 100;
}

/** What each of \`people\` pays. */
export function split(total, people) {
  if (people < 1) throw new Error('At least one person pays.');
  return total / people;
}
`,
  'test/tip.test.js': `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { split, tip } from '../src/tip.js';

test('tip', () => assert.equal(tip(100, 15), 15));
test('split', () => assert.equal(split(30, 3), 10));
`,
  'README.md': '# Tip calculator\n\n```bash\nnpm start -- 120 18 3\n```\n',
};

export const NODE_TS: Record<string, string> = {
  'package.json': `{
  "name": "word-stats",
  "private": true,
  "type": "module",
  "scripts": { "build": "tsc", "start": "node dist/index.js" },
  "devDependencies": { "typescript": "^5.6.0", "@types/node": "^22.0.0" }
}
`,
  'tsconfig.json': `{
  // Strict, modern output for Node.
  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "outDir": "dist" },
  "include": ["src"]
}
`,
  'src/index.ts': `import { readFileSync } from 'node:fs';
import { countWords, topWords } from './stats.js';

const text = readFileSync(process.argv[2] ?? 'README.md', 'utf8');
console.log(\`\${countWords(text)} words\`);
for (const [word, n] of topWords(text, 5)) console.log(word, n);
`,
  'src/stats.ts': `export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z']+/g) ?? [];
}

export function countWords(text: string): number {
  return words(text).length;
}

export function topWords(text: string, limit: number): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const w of words(text)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit);
}
`,
  'README.md': '# Word stats\n\nCounts the words of a text file.\n',
};

export const PYTHON: Record<string, string> = {
  'main.py': `from inventory.store import Store


def main() -> None:
    store = Store()
    store.add("apples", 3)
    store.add("pears", 2)
    print(store.report())


if __name__ == "__main__":
    main()
`,
  'inventory/__init__.py': '',
  'inventory/store.py': `class Store:
    """Counts items by name."""

    def __init__(self) -> None:
        self.items: dict[str, int] = {}

    def add(self, name: str, count: int) -> None:
        if count < 0:
            raise ValueError("count must not be negative")
        self.items[name] = self.items.get(name, 0) + count

    def report(self) -> str:
        return ", ".join(f"{name}: {n}" for name, n in sorted(self.items.items()))
`,
  'tests/test_store.py': `from inventory.store import Store


def test_add_counts_up():
    store = Store()
    store.add("a", 1)
    store.add("a", 2)
    assert store.items["a"] == 3
`,
  'requirements.txt': 'pytest>=8\n',
  'README.md': '# Inventory\n\nRun `python main.py`; test with `pytest`.\n',
};

export const STATIC_WEB: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Reading list</title>
  <link rel="stylesheet" href="styles.css">
</head>
<body>
  <main>
    <h1>Reading list</h1>
    <form id="add-form">
      <label for="title">Book</label>
      <input id="title" required>
      <button type="submit">Add</button>
    </form>
    <ul id="books"></ul>
  </main>
  <script src="app.js"></script>
</body>
</html>
`,
  'styles.css': `body {
  font-family: system-ui, sans-serif;
  margin: 2rem auto;
  max-width: 40rem;
}

#books li {
  padding: 0.25rem 0;
}
`,
  'app.js': `const KEY = 'reading-list';
const books = JSON.parse(localStorage.getItem(KEY) ?? '[]');

function render() {
  const list = document.getElementById('books');
  list.replaceChildren(...books.map((title) => Object.assign(document.createElement('li'), { textContent: title })));
}

document.getElementById('add-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = document.getElementById('title');
  books.push(input.value.trim());
  localStorage.setItem(KEY, JSON.stringify(books));
  input.value = '';
  render();
});

render();
`,
  'README.md': '# Reading list\n\nOpen `index.html` in a browser.\n',
};

export const REACT_TS: Record<string, string> = {
  'package.json': `{
  "name": "counter-app",
  "private": true,
  "type": "module",
  "scripts": { "dev": "vite", "build": "tsc -b && vite build" },
  "dependencies": { "react": "^19.0.0", "react-dom": "^19.0.0" },
  "devDependencies": { "@types/react": "^19.0.0", "@types/react-dom": "^19.0.0", "@vitejs/plugin-react": "^6.0.0", "typescript": "^5.6.0", "vite": "^8.0.0" }
}
`,
  'vite.config.ts': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({ plugins: [react()] });
`,
  'tsconfig.json': `{
  "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "jsx": "react-jsx", "strict": true, "noEmit": true },
  "include": ["src"]
}
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8"><title>Counter</title></head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'src/main.tsx': `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './App.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
  'src/App.tsx': `import { useState } from 'react';

interface Props {
  start?: number;
}

export function App({ start = 0 }: Props) {
  const [count, setCount] = useState(start);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      Clicked {count} times
    </button>
  );
}
`,
  'src/App.css': 'button {\n  font-size: 1.5rem;\n}\n',
};

/** A React app in plain JavaScript (JSX) with Vite: no type check stands between it and the build. */
export const REACT_JS: Record<string, string> = {
  'package.json': `{
  "name": "tally",
  "private": true,
  "type": "module",
  "scripts": { "dev": "vite", "build": "vite build", "preview": "vite preview" },
  "dependencies": { "react": "^19.0.0", "react-dom": "^19.0.0" },
  "devDependencies": { "@vitejs/plugin-react": "^6.0.0", "vite": "^8.0.0" }
}
`,
  'vite.config.js': `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({ plugins: [react()] });
`,
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8"><title>Tally</title></head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.jsx"></script>
  </body>
</html>
`,
  'src/main.jsx': `import { createRoot } from 'react-dom/client';
import App from './App.jsx';

createRoot(document.getElementById('root')).render(<App />);
`,
  'src/App.jsx': `import { useState } from 'react';
import { formatTally } from './format.js';

export default function App() {
  const [items, setItems] = useState([]);
  const [text, setText] = useState('');
  const add = () => {
    if (text.trim() === '') return;
    setItems([...items, text.trim()]);
    setText('');
  };
  return (
    <main>
      <h1>Tally</h1>
      <input aria-label="Item" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" onClick={add}>Add</button>
      <p>{formatTally(items.length)}</p>
    </main>
  );
}
`,
  'src/format.js': `/** "No items yet", "1 item", "3 items". */
export function formatTally(count) {
  if (count === 0) return 'No items yet';
  return \`\${count} item\${count === 1 ? '' : 's'}\`;
}
`,
  'README.md': '# Tally\n\n```bash\nnpm install\nnpm run dev\n```\n',
};

/** A copy of `base` with some files replaced (a value of null removes the file). */
export function changed(base: Record<string, string>, changes: Record<string, string | null>): Record<string, string> {
  const files = { ...base };
  for (const [path, content] of Object.entries(changes)) {
    if (content === null) delete files[path];
    else files[path] = content;
  }
  return files;
}

/**
 * The files and fix of a case whose defect is one edit of one file of a correct project. Throws
 * when the edit changes nothing, so a case cannot silently test a correct project.
 */
export function oneEdit(base: Record<string, string>, path: string, from: string, to: string): { files: Record<string, string>; fix: { files: Record<string, string> } } {
  const original = base[path];
  const broken = original?.replace(from, to);
  if (original === undefined || broken === original) throw new Error(`The edit of ${path} changes nothing: ${JSON.stringify(from)} is not in it.`);
  return { files: changed(base, { [path]: broken! }), fix: { files: { [path]: original } } };
}
