export default async function globalTeardown(): Promise<void> {
  await globalThis.__lisTestDatabase?.drop();
}
