import { Test, TestingModule } from '@nestjs/testing';
import { hashApiKey } from '../../src/api-key/api-key-hash';
import { ApiKeyModule } from '../../src/api-key/api-key.module';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { DatabaseModule } from '../../src/database/database.module';
import { Migrator } from '../../src/database/migrator';
import { PrismaService } from '../../src/database/prisma.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { createFirstRunKey, emptyCatalogueMessage, FIRST_RUN_KEY_NAME } from '../../src/startup/getting-started';
import { testConfig } from '../helpers/test-app';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

// A database of its own: the first-run key depends on the api_keys table being empty.
describe('first-run key and getting-started hints', () => {
  let db: ThrowawayDatabase;
  const modules: TestingModule[] = [];

  // Each module is one "API instance" with its own connection pool.
  async function instance(): Promise<TestingModule> {
    const config = testConfig({ databaseUrl: db.url });
    const moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(config), ApiKeyModule, ImageryModule],
    }).compile();
    await moduleRef.init();
    modules.push(moduleRef);
    return moduleRef;
  }

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await new Migrator(db.url).migrate();
  });
  afterAll(async () => {
    await Promise.all(modules.map((m) => m.close()));
    await db.drop();
  });

  it('creates exactly one key when instances start together on an empty table, stored only as its hash', async () => {
    const instances = await Promise.all([instance(), instance(), instance()]);
    const created = await Promise.all(instances.map((m) => createFirstRunKey(m)));
    const keys = created.filter((k): k is string => k !== undefined);
    expect(keys).toHaveLength(1);

    const rows = await instances[0].get(PrismaService).apiKey.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: FIRST_RUN_KEY_NAME, keyHash: hashApiKey(keys[0]) });
    expect(JSON.stringify(rows)).not.toContain(keys[0]);
    await expect(instances[1].get(ApiKeyService).authenticate(keys[0])).resolves.toMatchObject({
      name: FIRST_RUN_KEY_NAME,
    });
  });

  it('creates none on later starts, even when every key has been revoked', async () => {
    const moduleRef = await instance();
    const keys = moduleRef.get(ApiKeyService);
    await expect(createFirstRunKey(moduleRef)).resolves.toBeUndefined();
    for (const key of await keys.list()) await keys.revoke(key.id);
    await expect(createFirstRunKey(moduleRef)).resolves.toBeUndefined();
    expect(await keys.list()).toHaveLength(1);
  });

  it('explains an empty catalogue with the commands of the deployment, and says nothing once it holds a record', async () => {
    const moduleRef = await instance();
    const compose = await emptyCatalogueMessage(moduleRef, 'compose');
    expect(compose).toContain('docker compose --profile seed run --rm seed');
    expect(compose).toContain('docker compose exec -T api node dist/src/cli/import.cli.js -');
    expect(await emptyCatalogueMessage(moduleRef, 'npm')).toContain('npx prisma db seed');

    await moduleRef.get(PrismaService).$executeRaw`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      VALUES (gen_random_uuid(), '1 Test Street', current_date, 90, false, 'https://img.test/1.jpg', ST_SetSRID(ST_MakePoint(-118.4, 34.07), 4326))`;
    await expect(emptyCatalogueMessage(moduleRef, 'compose')).resolves.toBeUndefined();
  });
});
