import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { AppOptions, createApp } from '../../src/app';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { DatabaseModule } from '../../src/database/database.module';
import { FeatureItem } from '../../src/imagery/imagery-feature';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { currentKind } from '../setup/test-database';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const env = { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent', IMAGE_BASE_URL: 'https://img.test' };
  // As openDatabase configures the built-in database: one shared session, no named statements.
  const embedded = currentKind() === 'embedded' ? { dbPreparedStatements: false, dbSharedSession: true } : {};
  return { ...loadConfig(env), ...embedded, ...overrides };
}

// The real HTTP app (same middleware, pipes and filters as production) on the test database.
export async function startApp(
  overrides: Partial<AppConfig> = {},
  options: AppOptions = {},
): Promise<NestExpressApplication> {
  const app = await createApp(testConfig(overrides), options);
  await app.init();
  return app;
}

export async function createKey(app: INestApplication, name = 'test'): Promise<string> {
  return (await app.get(ApiKeyService).create(name)).key;
}

export function prismaClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) });
}

export async function importFixture(features: object[], source: string | null = null) {
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
  }).compile();
  await moduleRef.init();
  try {
    async function* items(): AsyncGenerator<FeatureItem> {
      let i = 0;
      for (const feature of features) yield { position: i++, feature };
    }
    return await moduleRef.get(ImageryImportService).importFeatures(items(), { source });
  } finally {
    await moduleRef.close();
  }
}

let counter = 0;
// A valid import Feature; ids are random per call unless given, so test files never collide.
export function feature(
  address: string,
  props: Record<string, unknown> = {},
  coords: [number, number] = [9.52, 47.14],
) {
  counter++;
  const { id, ...rest } = props;
  return {
    type: 'Feature',
    id: (id as string) ?? crypto.randomUUID(),
    geometry: { type: 'Point', coordinates: coords },
    properties: {
      address,
      captured_at: '2019-06-05',
      heading: (counter * 37) % 360,
      interactive: false,
      image_url: `https://img.test/${counter}.jpg`,
      ...rest,
    },
  };
}

// Test files run one after another (one jest worker) on one database; each starts from an empty catalogue.
export async function resetImagery(): Promise<void> {
  const prisma = prismaClient();
  try {
    // photos has no foreign key to imagery (it may be distributed): it is emptied with it.
    await prisma.$executeRawUnsafe('TRUNCATE imagery, photos');
  } finally {
    await prisma.$disconnect();
  }
}
