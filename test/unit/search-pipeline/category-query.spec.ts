import { categoryTags, readCategoryQuery } from '../../../src/search/query/category-query';

// Reading a category of place in a query (the words from the iD editor's presets, English and German).
describe('readCategoryQuery', () => {
  it('reads a category that is the whole query, singular or plural, English or German', () => {
    expect(readCategoryQuery('restaurant')).toEqual({
      tags: ['amenity=restaurant'],
      rest: '',
      connected: false,
      point: null,
    });
    // amenity=hotel is the deprecated tag of tourism=hotel: named alike, found alike.
    expect(readCategoryQuery('Hotels')?.tags).toEqual(['tourism=hotel', 'amenity=hotel']);
    expect(readCategoryQuery('pharmacies')?.tags).toEqual(['amenity=pharmacy']);
    expect(readCategoryQuery('Apotheken')?.tags).toEqual(['amenity=pharmacy']);
    expect(readCategoryQuery('Bäckereien')?.tags).toEqual(['shop=bakery']);
  });

  // The iD schema names these by education=* presets that add the amenity tag mappers use.
  it('reads schools, kindergartens and universities, and categories iD hides from its search', () => {
    expect(readCategoryQuery('schools in Vaduz')?.tags).toEqual(['amenity=school']);
    expect(readCategoryQuery('Kindergarten Triesen')?.tags).toEqual(['amenity=kindergarten']);
    expect(readCategoryQuery('university')?.tags).toEqual(['amenity=university']);
    expect(readCategoryQuery('music school in Triesen')?.tags).toEqual(['amenity=music_school']);
    expect(readCategoryQuery('recycling in Vaduz')?.tags).toEqual(['amenity=recycling']);
    // "yes" is no kind of place, though healthcare=yes has a preset.
    expect(readCategoryQuery('yes in Vaduz')).toBeNull();
  });

  it('reads the place or point the rest of the query gives, with or without a connecting word', () => {
    expect(readCategoryQuery('hotel in Vaduz')).toEqual({
      tags: ['tourism=hotel', 'amenity=hotel'],
      rest: 'Vaduz',
      connected: true,
      point: null,
    });
    expect(readCategoryQuery('Apotheke Vaduz')).toMatchObject({ rest: 'Vaduz', connected: false });
    expect(readCategoryQuery('Vaduz hotels')).toMatchObject({
      tags: ['tourism=hotel', 'amenity=hotel'],
      rest: 'Vaduz',
      connected: false,
    });
    expect(readCategoryQuery('Apotheke in der Nähe von Schaan')).toMatchObject({ rest: 'Schaan', connected: true });
    expect(readCategoryQuery('pharmacy near 47.14,9.52')).toEqual({
      tags: ['amenity=pharmacy'],
      rest: '47.14,9.52',
      connected: true,
      point: { lat: 47.14, lon: 9.52 },
    });
  });

  it('reads a phrase of several words, the longest first', () => {
    expect(readCategoryQuery('fast food in Schaan')).toMatchObject({ tags: ['amenity=fast_food'], rest: 'Schaan' });
    expect(readCategoryQuery('post office')?.tags).toEqual(['amenity=post_office']);
  });

  it('prefers a category named by the phrase to those listing it among their terms', () => {
    // shop=travel_agency lists "hotels"; amenity=bench lists German "Bank".
    expect(categoryTags(['hotels'])).toEqual(['tourism=hotel', 'amenity=hotel']);
    expect(categoryTags(['bank'])).toEqual(['amenity=bank']);
  });

  it('reads no category in words that only contain one, or without a place after a connecting word', () => {
    expect(readCategoryQuery('Restaurantweg 5')).toBeNull();
    expect(readCategoryQuery('Herrengasse 35 Vaduz')).toBeNull();
    expect(readCategoryQuery('hotel in')).toBeNull();
    expect(readCategoryQuery('')).toBeNull();
    expect(readCategoryQuery("' OR '1'='1")).toBeNull();
  });

  it('leaves deciding a rest without a connecting word to the search ("Bank Street 3" names no town)', () => {
    expect(readCategoryQuery('Bank Street 3')).toMatchObject({
      tags: ['amenity=bank'],
      rest: 'Street 3',
      connected: false,
    });
  });
});
