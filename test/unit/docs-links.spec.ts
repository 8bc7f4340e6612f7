import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { anchorsOf, brokenLink, linksOf, slug } from '../helpers/markdown-links';

const ROOT = resolve(__dirname, '..', '..');
// docs/ at every depth: the benchmark's history (docs/benchmarks/history/) and the committed reports too.
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

// Every relative link and #anchor in README.md and the Markdown files of docs/ leads somewhere:
// sections move, files are renamed, and a reader who follows a dead link is lost.
describe('links in README.md and docs/', () => {
  it('reads the files below docs/ too', () => {
    expect(DOCS).toContain('docs/benchmarks/history/2026-11-25-issue-14-ninth-round.md');
  });

  it('slugs headings as GitHub does', () => {
    expect(slug('Start and stop')).toBe('start-and-stop');
    expect(slug('OpenAPI and Swagger UI')).toBe('openapi-and-swagger-ui');
    expect(slug('`DATABASE_URL` unset: the built-in database (PGlite)')).toBe(
      'database_url-unset-the-built-in-database-pglite',
    );
    expect(slug('How sure an answer is?')).toBe('how-sure-an-answer-is');
  });

  it('finds the links it checks (the check cannot pass by reading nothing)', () => {
    const links = DOCS.flatMap((f) => linksOf(join(ROOT, f)));
    expect(links.length).toBeGreaterThan(100);
    expect(links.filter((l) => l.target.includes('#')).length).toBeGreaterThan(10);
    expect(anchorsOf(join(ROOT, 'docs/operations.md'))).toContain('configuration');
  });

  it('reports a missing file, a missing anchor and a missing heading in another file, not links in code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      writeFileSync(join(dir, 'b.md'), '# B\n\n## Same\n\n## Same\n');
      const a = join(dir, 'a.md');
      writeFileSync(
        a,
        [
          '# A `code` title',
          '[ok](b.md#same-1) [ok](#a-code-title) [ok](https://example.com/x.md#y) [ok](b.md)',
          '[gone](c.md) [lost](#nowhere) [moved](b.md#same-2)',
          '`[in code](d.md)`',
          '```',
          '[in a fence](e.md)',
          '```',
          '[ref]: b.md#b',
        ].join('\n'),
      );
      expect(
        linksOf(a)
          .map((l) => brokenLink(l, dir))
          .filter(Boolean),
      ).toEqual([
        'a.md:3 -> c.md: no such file',
        'a.md:3 -> #nowhere: no such heading or anchor',
        'a.md:3 -> b.md#same-2: no such heading or anchor',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(DOCS)('%s has no broken relative link or anchor', (file) => {
    const broken = linksOf(join(ROOT, file))
      .map((link) => brokenLink(link, ROOT))
      .filter(Boolean);
    expect(broken).toEqual([]);
  });
});
