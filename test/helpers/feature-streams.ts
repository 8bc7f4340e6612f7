import { Readable } from 'node:stream';
import { FeatureItem } from '../../src/imagery/imagery-feature';

// In-memory streams, optionally cut into tiny chunks so every boundary case is crossed.
export const stream = (text: string | Buffer, chunkSize = 0) => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  if (!chunkSize) return Readable.from([bytes]);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  return Readable.from(chunks);
};

export async function collect(items: AsyncIterable<FeatureItem>): Promise<FeatureItem[]> {
  const out: FeatureItem[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const feature = (address: string) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [1, 2] },
  properties: { address },
});
export const summary = (items: FeatureItem[]) =>
  items.map((i) =>
    i.rejection
      ? [i.position, i.rejection.reason]
      : [i.position, (i.feature as any)?.properties?.address ?? i.record?.address],
  );
