import { feature } from './test-app';

const COMPASS = [
  'North (N)',
  'Northeast (NE)',
  'East (E)',
  'Southeast (SE)',
  'South (S)',
  'Southwest (SW)',
  'West (W)',
  'Northwest (NW)',
];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface WebFixtureRecord {
  id: string;
  address: string;
  capturedAt: string;
  date: string;
  compass: string;
  interactive: boolean;
  lon: number;
  lat: number;
}

// 25 records on one street in Vaduz, ~250 m apart on a grid, every heading, dates 2012-2024 and every
// third one interactive: three pages of ten, and something for every filter to keep and drop.
export function streetFixture(): WebFixtureRecord[] {
  return Array.from({ length: 25 }, (_, i) => {
    const year = 2012 + (i % 13);
    const month = (i * 5) % 12;
    const capturedAt = `${year}-${String(month + 1).padStart(2, '0')}-${String(10 + (i % 9)).padStart(2, '0')}`;
    return {
      id: `b0000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      address: `Bergstrasse ${i + 1}, 9490 Vaduz`,
      capturedAt,
      date: `${MONTHS[month]} ${10 + (i % 9)}, ${year}`,
      compass: `Facing ${COMPASS[i % 8]}`,
      interactive: i % 3 === 0,
      lon: 9.5 + (i % 5) * 0.0033,
      lat: 47.13 + Math.floor(i / 5) * 0.0023,
    };
  });
}

export function streetFeatures(records = streetFixture()) {
  return records.map((r, i) =>
    feature(
      r.address,
      {
        id: r.id,
        captured_at: r.capturedAt,
        heading: (i % 8) * 45,
        interactive: r.interactive,
        image_url: `/demo-images/${r.id}.svg`,
      },
      [r.lon, r.lat],
    ),
  );
}
