import { PlaceCandidate, rankPlaces } from '../../../src/search/place-matching/place-ranking';
import { buildTextQuery } from '../../../src/search/query/text-query';

const candidate = (id: string, label: string, over: Partial<PlaceCandidate> = {}): PlaceCandidate => ({
  id,
  kind: 'address',
  name: 'Landstrasse 80',
  label,
  altNames: '',
  importance: 0.1,
  lon: 9.5,
  lat: 47.1,
  similarity: null,
  ...over,
});

describe('rankPlaces', () => {
  it('puts the place whose label holds every word whole before one that holds the last only as a prefix', () => {
    // The id order would put Triesenberg first.
    const places = [candidate('a', 'Landstrasse 80, 9497 Triesenberg'), candidate('b', 'Landstrasse 80, 9495 Triesen')];
    const ranked = rankPlaces(buildTextQuery('Landstrasse 80, Triesen')!, places);
    expect(ranked.map((p) => p.label)).toEqual(['Landstrasse 80, 9495 Triesen', 'Landstrasse 80, 9497 Triesenberg']);
    // Still typing: both hold "triese" only as a prefix, and the id decides.
    expect(rankPlaces(buildTextQuery('Landstrasse 80, Triese')!, places)[0].id).toBe('a');
  });

  it('keeps importance and name fit first: the tiebreak is smaller than either step', () => {
    const towns = [
      candidate('x', 'London, Ontario, Canada', { kind: 'locality', name: 'London', importance: 0.5 }),
      candidate('y', 'London, England, United Kingdom', { kind: 'locality', name: 'London', importance: 0.9 }),
    ];
    expect(rankPlaces(buildTextQuery('London')!, towns).map((p) => p.id)).toEqual(['y', 'x']);
  });
});
