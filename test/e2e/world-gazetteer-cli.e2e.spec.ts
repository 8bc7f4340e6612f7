import { PrismaClient } from '@prisma/client';
import { GAZETTEER_SOURCE } from '../../src/places/gazetteer/gazetteer-place';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { cli, logLines } from '../helpers/cli-tools';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The load of about 95,000 places, and the tool's start, on a shared machine.
jest.setTimeout(300_000);

// npm run import:places -- --world: the world gazetteer the built-in database's first start loads, alone.
describe('import:places --world', () => {
  let prisma: PrismaClient;

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await prisma.$executeRawUnsafe(`DELETE FROM places WHERE source = '${GAZETTEER_SOURCE}'`);
  });

  afterAll(async () => {
    await prisma.$executeRawUnsafe(`DELETE FROM places WHERE source = '${GAZETTEER_SOURCE}'`);
    await prisma.$disconnect();
  });

  it('loads every place of the world gazetteer and no demo record; refuses a file beside it', async () => {
    const refused = await cli('import-places', ['--world', 'places.csv']).done;
    expect(refused.code).toBe(2);
    expect(logLines(refused.stderr)).toContainEqual(
      expect.objectContaining({ level: 'error', msg: expect.stringMatching(/^--world takes no file/) }),
    );

    const run = await cli('import-places', ['--world']).done;
    expect(run.code).toBe(0);
    const places = buildWorldGazetteer().length;
    expect(run.stdout).toMatch(
      new RegExp(`^world gazetteer: inserted ${places}, updated 0, unchanged 0, deleted 0 in`),
    );
    expect(await prisma.place.count({ where: { source: GAZETTEER_SOURCE } })).toBe(places);
    expect(await prisma.imagery.count()).toBe(0);
  });
});
