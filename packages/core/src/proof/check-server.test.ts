import { describe, expect, it } from 'vitest';
import { servedPages } from './check-server.js';
import { projectKinds } from './execute-project.js';
import { correctProjects } from './fixtures/correct.js';
import { expressNotes } from './fixtures/full-stack.js';

describe('servedPages', () => {
  it("serves a static folder's index at / and that folder's other pages at their paths in it", () => {
    expect(servedPages(['public/index.html', 'public/about.html', 'public/admin/index.html', 'docs/guide.html'])).toEqual([
      { file: 'public/index.html', url: '/' },
      { file: 'public/about.html', url: '/about.html' },
      { file: 'public/admin/index.html', url: '/admin/' },
    ]);
    expect(servedPages(['index.html', 'public/index.html'])).toEqual([{ file: 'public/index.html', url: '/' }]);
  });

  it('serves an index elsewhere at / alone, and nothing without an index', () => {
    // res.sendFile of views/index.html or of ./index.html: where other pages are, if anywhere, is not known.
    expect(servedPages(['views/email.html', 'views/index.html'])).toEqual([{ file: 'views/index.html', url: '/' }]);
    expect(servedPages(['help.html', 'index.html'])).toEqual([{ file: 'index.html', url: '/' }]);
    expect(servedPages(['public/app.html'])).toEqual([]);
  });
});

describe('projectKinds of a Node HTTP server', () => {
  it('loads the pages an Express app serves through it, and none as static pages', () => {
    const kinds = projectKinds({ ...expressNotes, 'views/about.html': '<link rel="stylesheet" href="/styles.css">' });
    expect(kinds.server).toMatchObject({ plan: { framework: 'express', display: 'npm start (node server.js)' }, pages: [{ file: 'public/index.html', url: '/' }], buildFirst: false });
    expect(kinds.pages).toEqual([]);
  });

  it("leaves the pages of a server that sends no files static (an API beside a page of its own)", () => {
    const api = { ...expressNotes, 'server.js': expressNotes['server.js']!.replace("app.use(express.static(join(here, 'public')));\n", '') };
    expect(projectKinds(api)).toMatchObject({ server: { pages: [] }, pages: ['public/index.html'] });
  });

  it('asks the routes of a server without pages, and leaves other projects alone', () => {
    expect(projectKinds(correctProjects.httpServer).server).toMatchObject({ plan: { framework: 'node:http' }, pages: [] });
    expect(projectKinds(correctProjects.nodeJs).server).toBeNull();
    expect(projectKinds(correctProjects.staticPage)).toMatchObject({ server: null, pages: ['index.html'] });
  });
});
