import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  CITUS_REFERENCE_TABLES,
  citusSummary,
  IMAGERY_TRIGGERS_DONE_BY_WRITERS,
  imageryIsDistributed,
} from '../../src/database/citus-layout';

describe('the start-up line on a Citus coordinator', () => {
  it('names the reference and distributed tables, and where imagery is', () => {
    expect(
      citusSummary({
        version: '13.2-1',
        activeWorkers: 2,
        made: ['api_keys', 'imagery'],
        layout: { api_keys: 'reference', imagery: 'distributed' },
      }),
    ).toBe(
      'Citus 13.2-1 coordinator with 2 active workers: reference tables api_keys; distributed imagery (made now: ' +
        'api_keys, imagery)',
    );
    expect(citusSummary({ version: '13.2-1', activeWorkers: 2, made: [], layout: { api_keys: 'reference' } })).toBe(
      'Citus 13.2-1 coordinator with 2 active workers: reference tables api_keys; distributed none; imagery and the ' +
        'rest on the coordinator (docs/scaling.md#citus)',
    );
    expect(citusSummary({ version: '13.2-1', activeWorkers: 2, made: [], layout: { imagery: 'distributed' } })).toBe(
      'Citus 13.2-1 coordinator with 2 active workers: reference tables none; distributed imagery',
    );
  });

  it('says nothing is spread without an active worker', () => {
    expect(citusSummary({ version: '13.2-1', activeWorkers: 0, made: [], layout: {} })).toBe(
      'Citus 13.2-1 coordinator with 0 active workers: no active worker: every table stays on the coordinator',
    );
  });

  it('keeps imagery out of the reference tables (it is the table to distribute)', () => {
    expect(CITUS_REFERENCE_TABLES).not.toContain('imagery');
  });

  // Distributing imagery drops its triggers: each must be one whose upkeep its writers do there. The
  // committed copies of the database's triggers (npm run sql:functions) are the migrations' triggers.
  it('names every trigger on imagery as one its writers take over where it is distributed', () => {
    const dir = join(__dirname, '../../src/database/functions/triggers');
    const onImagery = readdirSync(dir)
      .filter((f) => f.startsWith('imagery.'))
      .map((f) => f.replace(/^imagery\.|\.sql$/g, ''));
    expect([...IMAGERY_TRIGGERS_DONE_BY_WRITERS].sort()).toEqual(onImagery.sort());
  });

  it('finds imagery distributed only on a Citus server whose pg_dist_partition hashes it', async () => {
    // Answers the two probes in turn: the citus extension, then imagery's distribution.
    const server = (citus: boolean, distributed: boolean) => {
      const answers = [citus, distributed];
      const sent: string[] = [];
      return {
        sent,
        query: async (text: string) => {
          sent.push(text);
          return { rows: [{ distributed: answers[sent.length - 1] }] };
        },
      };
    };
    const plain = server(false, false);
    expect(await imageryIsDistributed(plain)).toBe(false);
    expect(plain.sent).toHaveLength(1); // pg_dist_partition exists only with Citus
    expect(await imageryIsDistributed(server(true, false))).toBe(false);
    expect(await imageryIsDistributed(server(true, true))).toBe(true);
  });
});
