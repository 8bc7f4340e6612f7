import { Prisma } from '@prisma/client';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';
import { createTestReadonlyRole, dropTestReadonlyRole } from '../helpers/readonly-role';

// With DATABASE_READONLY_URL, searches and key lookups run as a role that can only read.
describe('least privilege (DATABASE_READONLY_URL)', () => {
  let role: string;
  let app: NestExpressApplication;
  let key: string;
  let owner: Client;
  const search = () =>
    request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Privilege Place' });

  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Privilege Place 1')]);
    const created = await createTestReadonlyRole();
    role = created.role;
    // Every request looks its key up, so the role's grants are exercised each time.
    app = await startApp({ databaseReadonlyUrl: created.url, apiKeyCacheSeconds: 0 });
    key = await createKey(app); // written through the owner connection
    owner = new Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
  });
  afterAll(async () => {
    await app.close();
    await owner.end();
    await dropTestReadonlyRole(role);
  });

  it('searches and authenticates through the read-only role', async () => {
    const res = await search().expect(200);
    expect(res.body.data[0].address).toBe('Privilege Place 1');
    // One word, a prefix, a misspelling: each reads other tables (place term lists, the vocabulary).
    for (const query of ['Privilege', 'Privil', 'Privilgee Place']) {
      const other = await request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query });
      expect({ query, status: other.status, first: other.body.data?.[0]?.address }).toEqual({
        query,
        status: 200,
        first: 'Privilege Place 1',
      });
    }
    const prisma = app.get(PrismaService);
    expect(await prisma.rawQuery(Prisma.sql`SELECT current_user::text AS u`)).toEqual([{ u: role }]);
  });

  // Tiles read the map's tables (the data version, map features, coverage cells) and the places.
  it('draws map tiles through the read-only role', async () => {
    for (const path of ['/tiles/8/134/89.mvt', '/tiles/16/34501/23013.mvt'])
      expect({ path, status: (await request(app.getHttpServer()).get(path)).status }).toEqual({ path, status: 200 });
  });

  it('really depends on that role: without its grant, the request path fails', async () => {
    await owner.query(`REVOKE SELECT ON imagery FROM ${owner.escapeIdentifier(role)}`);
    try {
      const res = await search().expect(500);
      expect(res.body.error.code).toBe('INTERNAL_ERROR');
    } finally {
      await owner.query(`GRANT SELECT ON imagery TO ${owner.escapeIdentifier(role)}`);
    }
    await search().expect(200);
    await owner.query(`REVOKE SELECT ON api_keys FROM ${owner.escapeIdentifier(role)}`);
    try {
      await search().expect(500); // the key lookup itself
    } finally {
      await owner.query(`GRANT SELECT ON api_keys TO ${owner.escapeIdentifier(role)}`);
    }
    await search().expect(200);
  });

  it('cannot write through the request-path connection', async () => {
    const reader = app.get(PrismaService).readerPool;
    await expect(reader.query('DELETE FROM imagery')).rejects.toMatchObject({ code: '25006' }); // read-only transaction
    await expect(reader.query('UPDATE api_keys SET revoked_at = NULL')).rejects.toMatchObject({ code: '25006' });
    await search().expect(200);
  });
});
