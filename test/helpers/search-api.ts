import { ContractProxy, startContractProxy } from './contract';
import { relevanceFixture } from './fixtures';
import { createKey, feature, importFixture, resetImagery, startApp } from './test-app';

/**
 * The app the POST /search e2e specs share: the relevance fixture plus 25 pagination rows, one key, and the
 * contract proxy (Prism) in front, so every response is checked against the OpenAPI document.
 */
export async function startSearchApi(): Promise<{
  app: Awaited<ReturnType<typeof startApp>>;
  contract: ContractProxy;
  key: string;
}> {
  await resetImagery();
  await importFixture([
    ...relevanceFixture(),
    feature('Pagination Way 1', { image_url: 'relative/one.jpg' }),
    ...Array.from({ length: 24 }, (_, i) => feature(`Pagination Way ${i + 2}`)),
  ]);
  const app = await startApp();
  const key = await createKey(app);
  const contract = await startContractProxy(app);
  return { app, contract, key };
}
