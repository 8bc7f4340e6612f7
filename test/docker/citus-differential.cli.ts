// The differential suite by hand (docs/scaling.md#citus): the suite's bodies, built from the single node's
// data, sent to two running APIs (a single node and a cluster) one after the other; per class how many
// answer the same (sameAnswer) and the median request time on each; the differing answers as JSON.
//   npx ts-node --transpile-only test/docker/citus-differential.cli.ts <single-node database URL> \
//     <single-node API URL> <cluster API URL> <API key> [differences.json]
import { writeFileSync } from 'node:fs';
import { answer, DiffAnswer, sameAnswer } from './citus-differential';
import { differentialBodies } from './citus-differential-queries';

interface ClassTally {
  same: number;
  bodies: number;
  clusterErrors: number;
  singleMs: number[];
  clusterMs: number[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(url: string, key: string, body: Record<string, unknown>): Promise<[DiffAnswer, number]> {
  const started = Date.now();
  const a = await answer(url, key, body);
  return [a, Date.now() - started];
}

async function main(): Promise<void> {
  const [databaseUrl, singleUrl, clusterUrl, key, out] = process.argv.slice(2);
  if (!key) throw new Error('usage: <database URL> <single-node API URL> <cluster API URL> <API key> [out.json]');
  const bodies = await differentialBodies(databaseUrl);
  const tally = new Map<string, ClassTally>();
  const differing: unknown[] = [];
  for (const b of bodies) {
    const [single, singleMs] = await timed(singleUrl, key, b.body);
    const [cluster, clusterMs] = await timed(clusterUrl, key, b.body);
    const t = tally.get(b.class) ?? { same: 0, bodies: 0, clusterErrors: 0, singleMs: [], clusterMs: [] };
    tally.set(b.class, t);
    const same = sameAnswer(single, cluster);
    t.bodies++;
    t.same += same ? 1 : 0;
    t.clusterErrors += cluster.status >= 500 ? 1 : 0;
    t.singleMs.push(singleMs);
    t.clusterMs.push(clusterMs);
    if (!same) differing.push({ class: b.class, body: b.body, single, cluster });
  }
  for (const [name, t] of tally)
    console.log(
      `${name}\t${t.same} / ${t.bodies}\tcluster 5xx ${t.clusterErrors}\tmedian ms: single ${median(t.singleMs)}, cluster ${median(t.clusterMs)}`,
    );
  console.log(`the same: ${bodies.length - differing.length} of ${bodies.length}`);
  if (out) writeFileSync(out, JSON.stringify(differing, null, 1));
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
