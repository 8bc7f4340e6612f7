import { importSql } from '../../src/imagery/imagery-import.sql';

// The import's statements where imagery is distributed (docs/scaling.md#citus): Citus plans no UPDATE of a
// temporary table FROM a read of a distributed or reference table ("relation ... is not distributed"),
// but an INSERT into one from such a read, and any statement on temporary tables alone. Checked on the
// statement text, as the unit tier has no cluster (the medium tier checks that both forms link alike).

const tables = { staging: 'stg', seen: 'seen', stored: 'stored', links: 'links', missing: 'missing' };
const sql = importSql(tables);
// The tables a statement reads or writes (after FROM, JOIN, INTO, UPDATE, USING), in order; CTE names,
// aliases and functions left out.
const TABLES = new Set([
  ...Object.values(tables),
  ...['imagery', 'places', 'imagery_words', 'imagery_word_ranks', 'coverage_touched'],
]);
const relations = (text: string) =>
  [...text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE|USING)\s+([a-z_]+)/gi)].map((m) => m[1]).filter((t) => TABLES.has(t));

describe('the import statements Citus plans', () => {
  it('on one server, settle and link update the staging table from reads of imagery and places', () => {
    expect(sql.settle.trimStart()).toMatch(/^UPDATE stg t/);
    expect(relations(sql.settle)).toContain('imagery');
    expect(sql.link.trimStart()).toMatch(/^UPDATE stg t/);
    expect(relations(sql.link)).toContain('places');
  });

  it('where imagery is distributed, the stored rows are read into a temporary table by their ids', () => {
    const read = sql.citus.readStored.trim();
    expect(read).toMatch(/^INSERT INTO stored \(/);
    expect(read).toContain('WHERE i.id = ANY($1::uuid[])');
    expect(new Set(relations(read))).toEqual(new Set(['stored', 'imagery']));
  });

  it('where imagery is distributed, the links are written into a temporary table, not the staging table', () => {
    const into = sql.citus.linkInto.trim();
    expect(into).toMatch(/^INSERT INTO links \(/);
    expect(relations(into)).toContain('places');
    expect(relations(into)).not.toContain('imagery');
    expect(into).not.toMatch(/\bUPDATE\b/);
  });

  it('where imagery is distributed, the staging table is updated from temporary tables alone', () => {
    for (const text of [sql.citus.settleFromStored, sql.citus.linkFromLinks]) {
      expect(text.trimStart()).toMatch(/^UPDATE stg t/);
      for (const t of relations(text)) expect(['stg', 'stored', 'links']).toContain(t);
    }
  });

  it('where imagery is distributed, the upsert and its dry run compare with the stored rows read first', () => {
    expect(relations(sql.upsert)).toContain('imagery');
    for (const text of [sql.citus.upsert, sql.citus.classify]) {
      const reads = relations(text.replace(/^\s*WITH up AS \(\s*INSERT INTO imagery/, ''));
      expect(new Set(reads)).toEqual(new Set(['stg', 'stored']));
    }
    expect(sql.citus.upsert).toMatch(/INSERT INTO imagery AS t/);
  });

  // What imagery's triggers do on one server (lis_count_words, lis_unrank_readdressed,
  // lis_note_coverage_touched), the batch does from its temporary tables: Citus runs no trigger on a
  // distributed table. The vocabulary's counts by the function lis_count_words runs (lis_add_word_counts,
  // which writes imagery_words). The medium tier compares the outcome with the triggers'.
  it('where imagery is distributed, the upkeep writes the vocabulary, ranked lists and coverage from temporary tables', () => {
    const upkeep = {
      unrankReaddressed: 'imagery_word_ranks',
      noteCoverage: 'coverage_touched',
      unrankMissing: 'imagery_word_ranks',
      noteMissingCoverage: 'coverage_touched',
    } as const;
    for (const [step, target] of Object.entries(upkeep)) {
      const [written, ...read] = relations(sql.citus[step as keyof typeof upkeep]);
      expect([step, written]).toEqual([step, target]);
      for (const t of read) expect(['stg', 'stored']).toContain(t);
    }
    for (const step of ['countWords', 'uncountMissing'] as const) {
      expect([step, sql.citus[step]]).toEqual([step, expect.stringMatching(/^SELECT lis_add_word_counts\(ARRAY\(/)]);
      for (const t of relations(sql.citus[step])) expect(['stg', 'stored']).toContain(t);
    }
  });

  it('where imagery is distributed, --delete-missing deletes by a list made on the coordinator', () => {
    expect(relations(sql.citus.gatherMissing)).toEqual(['missing', 'imagery']);
    expect(relations(sql.citus.keepUnseen)).toEqual(['missing', 'seen']);
    expect(sql.citus.deleteListed.trim()).toBe('DELETE FROM imagery t WHERE t.id IN (SELECT m.id FROM missing m)');
    expect(sql.deleteMissing).toContain('NOT EXISTS');
  });

  it('the temporary tables are emptied at every commit and dropped with the others', () => {
    expect(sql.citus.createStored).toMatch(/^CREATE TEMP TABLE stored \([^]*\) ON COMMIT DELETE ROWS$/);
    expect(sql.citus.createLinks).toMatch(/^CREATE TEMP TABLE links \([^]*\) ON COMMIT DELETE ROWS$/);
    expect(sql.drop).toBe('DROP TABLE IF EXISTS stg, seen, stored, links, missing');
  });
});
