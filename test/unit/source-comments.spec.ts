import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { anchorsOf } from '../helpers/markdown-links';
import { commentsOf, measurementsIn, typeScriptFilesUnder } from '../helpers/source-comments';

// A comment under src/ (and web/src/) keeps the reason for the code beside it, and links to the
// figure behind it (docs/benchmarks.md#figures-behind-the-code) rather than quoting it: a figure
// dates, a round of measurement is history, and both belong in the docs and in git.
const ROOT = join(__dirname, '..', '..');
// The service's code and the web page's.
const SRC_COMMENTS = [join(ROOT, 'src'), join(ROOT, 'web', 'src')].flatMap(typeScriptFilesUnder).flatMap(commentsOf);
const TEST_COMMENTS = typeScriptFilesUnder(join(ROOT, 'test')).flatMap(commentsOf);
const where = (c: { file: string; line: number }) => `${relative(ROOT, c.file)}:${c.line}`;

describe('comments under src/', () => {
  it('finds measurement language: figures measured, and the rounds that measured them', () => {
    const measured = [
      'the request log cost 591-629 -> 503-535 us of server CPU per `coordinates` search with it removed',
      'so it skips all of that (measured in docs/benchmarks.md, ninth round)',
      "reads them cheaper in table order (issue 36's sixth round)",
      'Measured: a third less database CPU and a fifth more searches per second',
      "hashing it (up to tens of KB) cost ~2% of the server's CPU per search under load",
      "Saves a database round trip per request (a sixth of a search's CPU)",
      "On a bulk connection: 8.8 s for 530,000 places (the 1M bench's), past the timeout",
      "most of the directory (~560 MB of a first start's ~830) is segments",
      '"United States" read 5,000 of the 49,145 places holding both words',
      '`6th Street` took 13 of its 22 ms',
      'the first build ran at 16,186 records/s',
      'p99 fell to 20.6 ms',
      'the new path is 3x faster',
      'the statement was 27 ms, now 3',
      'prefix statements went from 23 ms to 2.8 ms',
      'the formatter took 0.1 ms a call',
    ];
    expect(measured.filter((text) => measurementsIn(text).length === 0)).toEqual([]);
  });

  it('leaves rules alone: bounds, limits and timeouts the code states', () => {
    const rules = [
      'At most one rate-limit window (60 s); 5 s after a database outage.',
      'own connections stop a statement after DB_STATEMENT_TIMEOUT_MS (2 s), so it gets a context of its own',
      "A TCP connection's first round trip carries about 14 KB (an initial window of 10 segments)",
      "The request path's reads: round robin over the replicas whose last check passed",
      'Vernon" finds "Mount Vernon", and the other way round',
      'Metres per degree of latitude, rounded down (110,574 m at the equator)',
      'Map features sent at once (fewer round trips; a batch is about 1 MB of GeoJSON).',
      'One write per ~64 KB instead of one per record: far fewer syscalls and zlib calls.',
      'a 16 KB body of nested arrays overflows their stack',
      'the oldest written views are removed until a tenth of the bound is free again',
      'a request that took longer than the 2 s statement timeout is cancelled',
      'a 10 MB limit on the body; page 1 of a 2 km circle at 47 degrees',
      'the cap being at most 10 x (offset + limit), page 1 admits up to 640 cells',
      'A database out of reach is asked again every 30 s',
    ];
    expect(rules.map((text) => [text, measurementsIn(text)]).filter(([, found]) => found.length > 0)).toEqual([]);
  });

  it('reads the comments of every file (the check cannot pass by reading nothing)', () => {
    expect(SRC_COMMENTS.length).toBeGreaterThan(1000);
    // A run of `//` lines is one comment, so a sentence wrapped over lines is read whole.
    expect(SRC_COMMENTS.some((c) => /No JIT: a plan whose rarely-run branch looks costly/.test(c.text))).toBe(true);
    // A `//` inside a string is no comment.
    expect(SRC_COMMENTS.some((c) => c.text.startsWith('github.com') || c.text.startsWith('localhost'))).toBe(false);
  });

  it('carry no measured figures and no rounds of measurement (link docs/benchmarks.md#fig-... instead)', () => {
    const found = SRC_COMMENTS.flatMap((c) => measurementsIn(c.text).map((m) => `${where(c)}: ${m}`));
    expect(found).toEqual([]);
  });
});

describe('links from code comments into docs/', () => {
  const anchors = anchorsOf(join(ROOT, 'docs', 'benchmarks.md'));
  const links = [...SRC_COMMENTS, ...TEST_COMMENTS].flatMap((c) =>
    [...c.text.matchAll(/\bdocs\/[\w./-]+\.md(?:#[\w-]+)?/g)].map((m) => ({ at: where(c), link: m[0] })),
  );

  it('lead to a file and an anchor that exist', () => {
    expect(links.length).toBeGreaterThan(40);
    const broken = links.filter(({ link }) => {
      const [path, anchor] = link.split('#');
      if (!existsSync(join(ROOT, path))) return true;
      return anchor !== undefined && !anchorsOf(join(ROOT, path)).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('name a row of the figures table when they point into docs/benchmarks.md from src/', () => {
    const bare = links.filter(
      ({ at, link }) => /^(web\/)?src\//.test(at) && link.startsWith('docs/benchmarks.md') && !link.includes('#fig-'),
    );
    expect(bare).toEqual([]);
    expect([...anchors].filter((a) => a.startsWith('fig-')).length).toBeGreaterThan(40);
  });
});
