/**
 * Bundled web apps (React + Vite, in TypeScript and in plain JSX): the defects only building the
 * app and rendering its page show, and correct apps that must pass untouched. The static checks
 * pass every one of these projects; only the execution gate's build and render find the defects.
 * A defect that shows only after a click is out of scope: the render loads the page, it does not
 * use it (the record says so). `expect` names the file at fault, as the simulated gate of
 * faults.test.ts also does; check-bundle.int.test.ts holds the real gate to the exact messages.
 */
import type { FaultCase } from './fault-case.js';
import { changed, REACT_JS, REACT_TS } from './projects.js';

const correctApp = REACT_TS['src/App.tsx']!;
const correctJsApp = REACT_JS['src/App.jsx']!;

/** The counter remembers its last clicks, read from localStorage: null on a first visit, and `.map` on null throws while rendering. */
const CRASHING_APP = correctApp
  .replace("import { useState } from 'react';", "import { useState } from 'react';\n\nconst recent: number[] = JSON.parse(localStorage.getItem('recent') ?? 'null');")
  .replace('      Clicked {count} times\n', "      Clicked {count} times (before: {recent.map((n) => n).join(', ')})\n");
const FIXED_CRASHING_APP = CRASHING_APP.replace("?? 'null'", "?? '[]'");

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><circle cx="16" cy="16" r="14" fill="#4f46e5"/></svg>\n';
const APP_WITH_LOGO = correctApp.replace('    <button type="button"', '    <>\n      <img src="/logo.svg" alt="" width="32" height="32" />\n      <button type="button"').replace('    </button>\n', '    </button>\n    </>\n');

export const BUNDLED_CASES: FaultCase[] = [
  {
    id: 'correct-react-ts',
    kind: 'bundled-web',
    defect: null,
    files: REACT_TS,
    engineFixes: true,
  },
  {
    id: 'correct-react-js',
    kind: 'bundled-web',
    defect: null,
    files: REACT_JS,
    engineFixes: true,
  },
  {
    id: 'render-crash-first-visit',
    kind: 'bundled-web',
    defect: 'the first render reads a value from localStorage that is null on a first visit, and .map on it throws: the page is blank',
    files: changed(REACT_TS, { 'src/App.tsx': CRASHING_APP }),
    fix: { files: { 'src/App.tsx': FIXED_CRASHING_APP } },
    engineFixes: true,
    needsExecution: true,
    expect: /src\/App\.tsx/,
  },
  {
    id: 'missing-asset',
    kind: 'bundled-web',
    defect: 'the app shows /logo.svg, which nobody wrote into public/',
    files: changed(REACT_TS, { 'src/App.tsx': APP_WITH_LOGO }),
    fix: { files: { 'public/logo.svg': LOGO } },
    engineFixes: true,
    needsExecution: true,
    expect: /logo\.svg/,
  },
  {
    id: 'build-error-missing-export',
    kind: 'bundled-web',
    defect: 'the app imports formatCount from format.js, which exports formatTally: the bundler refuses to build it',
    files: changed(REACT_JS, { 'src/App.jsx': correctJsApp.replaceAll('formatTally', 'formatCount') }),
    fix: { files: { 'src/App.jsx': correctJsApp } },
    engineFixes: true,
    needsExecution: true,
    expect: /src\/App\.jsx/,
  },
  {
    id: 'empty-root',
    kind: 'bundled-web',
    defect: 'the React root is created in src/main.jsx but nothing is ever rendered into it: the page stays blank, with no error',
    files: changed(REACT_JS, { 'src/main.jsx': REACT_JS['src/main.jsx']!.replace('.render(<App />);', ';\nvoid App;') }),
    fix: { files: { 'src/main.jsx': REACT_JS['src/main.jsx']! } },
    engineFixes: true,
    needsExecution: true,
    expect: /src\/main\.jsx|rendered nothing into #root/,
  },
];
