import { FIT_MAX_ZOOM, FIT_MAX_ZOOM_WITHOUT_PLACE, fitMaxZoom } from '../../web/src/map-fit';
import { PLACE_KINDS } from '../../src/places/place-record';

// How close the web page's map frames results, by the kind of place they were found through (web/src/map-fit.ts).
describe('web map fit', () => {
  const at = (kind: string) => ({
    place: { id: 'p', kind, label: 'x', lat: 47.14, lon: 9.52, distance_m: 10 },
  });

  it('has a zoom for every kind of place the service knows, finer kinds closer', () => {
    expect(Object.keys(FIT_MAX_ZOOM).sort()).toEqual([...PLACE_KINDS].sort());
    const order = ['country', 'region', 'locality', 'postcode', 'street', 'address'] as const;
    for (let i = 1; i < order.length; i++) expect(FIT_MAX_ZOOM[order[i]]).toBeGreaterThan(FIT_MAX_ZOOM[order[i - 1]]);
  });

  it('frames a town to its streets and an address to its doorstep', () => {
    expect(fitMaxZoom([at('locality'), at('locality')])).toBe(14);
    expect(fitMaxZoom([at('address')])).toBe(18);
    expect(fitMaxZoom([at('country')])).toBe(6);
  });

  it('takes the finest kind among the results, and the default without places', () => {
    expect(fitMaxZoom([at('locality'), at('street'), {}])).toBe(17);
    expect(fitMaxZoom([{}, {}])).toBe(FIT_MAX_ZOOM_WITHOUT_PLACE);
    expect(fitMaxZoom([at('unknown kind')])).toBe(FIT_MAX_ZOOM_WITHOUT_PLACE);
  });
});
