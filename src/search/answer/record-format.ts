import type { AppConfig } from '../../config/app-config';
import { formatCaptureDate, formatCompass, recordImageUrl } from './capture-format';
import type { IncludeName } from '../dto/search-filters.dto';
import type { ImageryRecordDto } from '../dto/search-response.dto';
import type { SearchRow } from '../search.repository';

// A row of imagery in the contract's shape (docs/api.md), with the per-record fields `include` asks
// for that the row itself holds; the includes read from other tables are attached by their owners.
export function toRecord(
  row: SearchRow,
  include: ReadonlySet<IncludeName>,
  score: number,
  config: Pick<AppConfig, 'imageBaseUrl' | 'imageUrlSecret'>,
): ImageryRecordDto {
  const record: ImageryRecordDto = {
    id: row.id,
    address: row.address,
    date: formatCaptureDate(row.capturedAt),
    compass: formatCompass(row.heading),
    interactive: row.interactive,
    geometry: { type: 'Point', coordinates: [row.lon, row.lat] },
    image: recordImageUrl(row.imageUrl, row.id, config),
  };
  if (include.has('captured_at')) record.captured_at = row.capturedAt;
  if (include.has('heading')) record.heading = row.heading;
  if (include.has('distance_m') && row.distance !== null) record.distance_m = Math.round(row.distance * 10) / 10;
  if (include.has('score')) record.score = Math.round(score * 1e6) / 1e6;
  return record;
}
