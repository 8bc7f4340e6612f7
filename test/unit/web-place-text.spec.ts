import { formatMetres, MatchedPlace, placeText } from '../../web/src/place-text';

// How the web page names the place a result belongs to (web/src/place-text.ts).
describe('web page place text', () => {
  const address = (distance_m: number, bearing_offset_deg?: number): MatchedPlace => ({
    id: 'p1',
    kind: 'address',
    label: 'Herrengasse 35, 9490 Vaduz',
    lat: 47.1395,
    lon: 9.5215,
    distance_m,
    ...(bearing_offset_deg === undefined ? {} : { bearing_offset_deg }),
  });
  const sentence = (place: MatchedPlace, interactive = false) => {
    const t = placeText(place, interactive);
    return `${t.before}${t.label}${t.after}`;
  };

  it('says how far an address is and how well a still image faces it', () => {
    expect(sentence(address(12.4, 8.4))).toBe('12 m from Herrengasse 35, 9490 Vaduz, facing it (8°)');
    expect(sentence(address(12, 30))).toBe('12 m from Herrengasse 35, 9490 Vaduz, facing it (30°)');
    // The service's one facing angle: a record the ranking takes as showing the address faces it here too.
    expect(sentence(address(12, 45))).toBe('12 m from Herrengasse 35, 9490 Vaduz, facing it (45°)');
    expect(sentence(address(12, 45.4))).toBe('12 m from Herrengasse 35, 9490 Vaduz, turned 45° from it');
    expect(sentence(address(30, 62.5))).toBe('30 m from Herrengasse 35, 9490 Vaduz, turned 63° from it');
    expect(sentence(address(30, 90))).toBe('30 m from Herrengasse 35, 9490 Vaduz, turned 90° from it');
    expect(sentence(address(10, 180))).toBe('10 m from Herrengasse 35, 9490 Vaduz, facing away (180°)');
    expect(placeText(address(12, 8), false)).toEqual({
      before: '12 m from ',
      label: 'Herrengasse 35, 9490 Vaduz',
      after: ', facing it (8°)',
    });
  });

  it('calls a panorama a 360° view, and a record at the point itself "at" it', () => {
    expect(sentence(address(10, 160), true)).toBe('10 m from Herrengasse 35, 9490 Vaduz, a 360° view');
    expect(sentence(address(0))).toBe('At Herrengasse 35, 9490 Vaduz');
    expect(sentence(address(4))).toBe('4 m from Herrengasse 35, 9490 Vaduz');
  });

  it('puts a record in an area, on a street, or a distance from a point of interest', () => {
    const place = (kind: string, label: string, distance_m = 2400): MatchedPlace => ({
      id: 'p',
      kind,
      label,
      lat: 0,
      lon: 0,
      distance_m,
    });
    expect(sentence(place('locality', 'San Francisco, CA, United States'))).toBe('In San Francisco, CA, United States');
    expect(sentence(place('postcode', '9490, Liechtenstein'))).toBe('In 9490, Liechtenstein');
    expect(sentence(place('region', 'California, United States'))).toBe('In California, United States');
    expect(sentence(place('country', 'Liechtenstein'))).toBe('In Liechtenstein');
    expect(sentence(place('street', 'Bergstrasse, Vaduz'))).toBe('On Bergstrasse, Vaduz');
    expect(sentence(place('poi', 'Kunstmuseum', 85))).toBe('85 m from Kunstmuseum');
  });

  it('writes distances in metres below a kilometre, then in kilometres', () => {
    expect(formatMetres(0.4)).toBe('0 m');
    expect(formatMetres(999.4)).toBe('999 m');
    expect(formatMetres(1000)).toBe('1 km');
    expect(formatMetres(2450)).toBe('2.5 km');
  });
});
