import { Injectable } from '@nestjs/common';
import { LookingAtDto, NearDto } from '../search/dto/search-filters.dto';
import { SearchRequestDto } from '../search/dto/search-request.dto';
import { SearchException } from '../search/search.exception';
import { ImageryRecordDto } from '../search/dto/search-response.dto';
import { SearchService } from '../search/search.service';
import { StreetViewRequest } from './streetview-request';
import { StreetViewException } from './streetview.exception';

// Google's Street View metadata, answered from this catalogue: the panorama for a location, as
// https://developers.google.com/maps/documentation/streetview/metadata describes it (docs/streetview.md).
export type StreetViewMetadata =
  | {
      copyright: string;
      date: string;
      location: { lat: number; lng: number };
      pano_id: string;
      status: 'OK';
    }
  | { status: 'ZERO_RESULTS' | 'NOT_FOUND' };

export const COPYRIGHT = '© Location Imagery Search';

@Injectable()
export class StreetViewService {
  constructor(private readonly search: SearchService) {}

  // The location read as POST /search reads a query. Coordinates or a plus code: the image within the
  // radius that faces the point (its heading towards it, or a panorama), else the nearest one within
  // it, else ZERO_RESULTS. Text (an address, a place): the search's best match; with none, ZERO_RESULTS
  // when the text names a place this service knows, NOT_FOUND when it names nothing it knows.
  async metadata(request: StreetViewRequest): Promise<StreetViewMetadata> {
    const read = await this.find({ query: request.location, limit: 1, include: ['interpretation'] });
    const interpretation = read.interpretation;
    if (interpretation?.kind === 'text' || interpretation?.lat === undefined || interpretation.lon === undefined) {
      if (read.data[0]) return found(read.data[0]);
      return { status: interpretation?.place ? 'ZERO_RESULTS' : 'NOT_FOUND' };
    }
    const at = { lat: interpretation.lat, lon: interpretation.lon, radius_m: request.radiusM };
    const facing = await this.find({ looking_at: Object.assign(new LookingAtDto(), at), limit: 1 });
    if (facing.data[0]) return found(facing.data[0]);
    const nearest = await this.find({ near: Object.assign(new NearDto(), at), limit: 1, sort: 'distance' });
    return nearest.data[0] ? found(nearest.data[0]) : { status: 'ZERO_RESULTS' };
  }

  private async find(fields: Partial<SearchRequestDto>) {
    const request = Object.assign(new SearchRequestDto(), fields);
    request.include = [...new Set([...(request.include ?? []), 'captured_at' as const])];
    try {
      return await this.search.search(request);
    } catch (error) {
      if (error instanceof SearchException) throw new StreetViewException('location', error.message);
      throw error;
    }
  }
}

function found(record: ImageryRecordDto): StreetViewMetadata {
  const [lng, lat] = record.geometry.coordinates;
  return {
    copyright: COPYRIGHT,
    date: record.captured_at!.slice(0, 7),
    location: { lat, lng },
    pano_id: record.id,
    status: 'OK',
  };
}
