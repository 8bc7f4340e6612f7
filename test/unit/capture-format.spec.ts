import {
  compassSector,
  formatCaptureDate,
  formatCompass,
  resolveImageUrl,
} from '../../src/search/answer/capture-format';

describe('formatCaptureDate', () => {
  it.each([
    ['2019-06-05', 'June 5, 2019'],
    ['2015-09-10', 'September 10, 2015'],
    ['2024-01-01', 'January 1, 2024'],
    ['1999-12-31', 'December 31, 1999'],
    ['2020-02-29', 'February 29, 2020'],
  ])('%s -> %s', (input, expected) => expect(formatCaptureDate(input)).toBe(expected));

  it('refuses anything but a calendar date', () => {
    expect(() => formatCaptureDate('2019-06-05T10:00:00Z')).toThrow();
  });
});

describe('formatCompass', () => {
  // Each sector is [centre - 22.5, centre + 22.5): check both edges of every one.
  it.each([
    [0, 'Facing North (N)'],
    [22.4999, 'Facing North (N)'],
    [22.5, 'Facing Northeast (NE)'],
    [67.4999, 'Facing Northeast (NE)'],
    [67.5, 'Facing East (E)'],
    [112.4999, 'Facing East (E)'],
    [112.5, 'Facing Southeast (SE)'],
    [157.4999, 'Facing Southeast (SE)'],
    [157.5, 'Facing South (S)'],
    [202.4999, 'Facing South (S)'],
    [202.5, 'Facing Southwest (SW)'],
    [247.4999, 'Facing Southwest (SW)'],
    [247.5, 'Facing West (W)'],
    [273.1, 'Facing West (W)'],
    [292.4999, 'Facing West (W)'],
    [292.5, 'Facing Northwest (NW)'],
    [337.4999, 'Facing Northwest (NW)'],
    [337.5, 'Facing North (N)'],
    [359.9999, 'Facing North (N)'],
  ])('%d degrees -> %s', (heading, expected) => expect(formatCompass(heading)).toBe(expected));

  it('wraps headings outside [0, 360)', () => {
    expect(compassSector(360)).toBe('N');
    expect(compassSector(-90)).toBe('W');
  });

  it('says North as the placeholder for a record without a heading', () => {
    expect(formatCompass(null)).toBe('Facing North (N)');
  });
});

describe('resolveImageUrl', () => {
  it('keeps absolute http(s) URLs as stored', () => {
    expect(resolveImageUrl('https://cdn.example.com/a.jpg', 'http://base')).toBe('https://cdn.example.com/a.jpg');
    expect(resolveImageUrl('HTTP://cdn.example.com/a.jpg', 'http://base')).toBe('HTTP://cdn.example.com/a.jpg');
  });

  it('joins relative paths to the base with exactly one slash', () => {
    expect(resolveImageUrl('/img/a.jpg', 'https://img.example.com/')).toBe('https://img.example.com/img/a.jpg');
    expect(resolveImageUrl('img/a.jpg', 'https://img.example.com')).toBe('https://img.example.com/img/a.jpg');
  });
});
