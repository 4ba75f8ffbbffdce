import { describe, expect, it } from 'vitest';
import { servedPages } from './check-server.js';
import { projectKinds } from './execute-project.js';
import { correctProjects } from './fixtures/correct.js';
import { expressNotes } from './fixtures/full-stack.js';

describe('servedPages', () => {
  it('serves the first index page at / and the pages of a static folder without the folder', () => {
    expect(servedPages(['public/index.html', 'public/about.html', 'public/admin/index.html'])).toEqual([
      { file: 'public/index.html', url: '/' },
      { file: 'public/about.html', url: '/about.html' },
      { file: 'public/admin/index.html', url: '/admin/' },
    ]);
    expect(servedPages(['index.html', 'help.html'])).toEqual([
      { file: 'index.html', url: '/' },
      { file: 'help.html', url: '/help.html' },
    ]);
    // A page outside a static folder is the server's only when it is its index (res.sendFile of views/index.html).
    expect(servedPages(['views/index.html', 'views/email.html', 'docs/guide.html'])).toEqual([{ file: 'views/index.html', url: '/' }]);
  });
});

describe('projectKinds of a Node HTTP server', () => {
  it('loads the pages an Express app serves through it, and none as static pages', () => {
    const kinds = projectKinds({ ...expressNotes, 'views/about.html': '<link rel="stylesheet" href="/styles.css">' });
    expect(kinds.server).toMatchObject({ plan: { framework: 'express', display: 'npm start (node server.js)' }, pages: [{ file: 'public/index.html', url: '/' }], buildFirst: false });
    expect(kinds.pages).toEqual([]);
  });

  it('asks the routes of a server without pages, and leaves other projects alone', () => {
    expect(projectKinds(correctProjects.httpServer).server).toMatchObject({ plan: { framework: 'node:http' }, pages: [] });
    expect(projectKinds(correctProjects.nodeJs).server).toBeNull();
    expect(projectKinds(correctProjects.staticPage)).toMatchObject({ server: null, pages: ['index.html'] });
  });
});
