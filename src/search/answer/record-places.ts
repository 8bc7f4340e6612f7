import { Injectable } from '@nestjs/common';
import { turnDeg } from '../../photos/metadata/geodesy';
import { MatchedPlaceDto } from '../dto/search-response.dto';
import { SearchRow } from '../search.repository';
import { MAX_VIEWS, VIEW_RADIUS_M } from '../sql/place-pins.sql';
import { PlaceMatchingRepository, RecordPlaceRow } from '../place-matching/place-matching.repository';
import { isViewed, RankedPlace } from '../place-matching/place-ranking';

// `include: ["place"]`: per record, the best place of the query it belongs to (a named place it is
// linked to, or the named address it faces from within VIEW_RADIUS_M); else the place its address
// came from, else the locality it lies in. Records linked to none get no `place`.
@Injectable()
export class RecordPlaces {
  constructor(private readonly repository: PlaceMatchingRepository) {}

  /** Per row, in order, the place to show it with (undefined: none). */
  async placesOf(
    rows: readonly SearchRow[],
    named: readonly RankedPlace[],
  ): Promise<Array<MatchedPlaceDto | undefined>> {
    const pairs: Array<{ record: string; place: string }> = [];
    for (const row of rows) {
      for (const place of candidates(row, named)) pairs.push({ record: row.id, place });
    }
    const found = await this.repository.recordPlaces(
      pairs.map((p) => p.record),
      pairs.map((p) => p.place),
    );
    return rows.map((row) => {
      const options = found.filter((f) => f.recordId === row.id);
      // The first candidate that applies: a view of a named address or POI only within the radius.
      const views = viewedPlaces(row, named);
      const f = candidates(row, named)
        .map((id) => options.find((o) => o.id === id))
        .find((o): o is RecordPlaceRow => o !== undefined && (!views.includes(o.id) || o.distance <= VIEW_RADIUS_M));
      return f && placeOf(f, row.heading);
    });
  }
}

function placeOf(f: RecordPlaceRow, heading: number | null): MatchedPlaceDto {
  const place: MatchedPlaceDto = {
    id: f.id,
    kind: f.kind,
    label: f.label,
    lat: f.lat,
    lon: f.lon,
    distance_m: Math.round(f.distance * 10) / 10,
  };
  if (f.hierarchy) place.hierarchy = f.hierarchy;
  if ((f.kind === 'address' || f.kind === 'poi') && f.bearing !== null && f.distance > 0 && heading !== null) {
    place.bearing_offset_deg = Math.round(turnDeg(heading, f.bearing) * 10) / 10;
  }
  return place;
}

// The named addresses and POIs a record not linked to any named place may be a view of, best first.
function viewedPlaces(row: SearchRow, named: readonly RankedPlace[]): string[] {
  if (named.some((p) => p.id === row.placeId || p.id === row.localityId)) return [];
  return named
    .filter(isViewed)
    .slice(0, MAX_VIEWS)
    .map((p) => p.id);
}

// The places a record may be shown with, in order of preference.
function candidates(row: SearchRow, named: readonly RankedPlace[]): string[] {
  const linked = named.find((p) => p.id === row.placeId || p.id === row.localityId);
  if (linked) return [linked.id];
  const own = [row.placeId, row.localityId].filter((id): id is string => id !== null);
  return [...viewedPlaces(row, named), ...own];
}
