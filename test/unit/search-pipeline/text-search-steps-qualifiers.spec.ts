import { place, run } from '../../helpers/scripted-search-steps';

// The steps that read what a query says besides its words: a category of place, a country or region
// named at the end (see text-search-steps.spec.ts for the harness's scripted answers).
describe('the text search steps that read qualifiers', () => {
  describe('named-category', () => {
    it('answers a category that is the whole query with the imagery at its pois', async () => {
      const r = await run('restaurants', { category: 3 });
      expect(r.step).toBe('named-category');
      expect(r.answer.match).toBe('nearby');
      expect(r.calls).toEqual(['named:restaurants', 'category:amenity=restaurant@anywhere']);
    });

    it('looks for the pois around the place the rest names, within its surroundings', async () => {
      const r = await run('hotel in Vaduz', { named: [[], [place('Vaduz')]], category: 1 });
      expect(r.step).toBe('named-category');
      expect(r.calls).toEqual(['named:hotel in vaduz', 'named:vaduz', 'category:tourism=hotel,amenity=hotel@10000']);
    });

    it('goes on as before when the category has no imagery, or the rest names no town', async () => {
      const none = await run('restaurant', { category: 0, fullText: [2], words: [['restaurant', 5]] });
      expect(none.step).toBe('full-text');
      const street = await run('Bank Street 3', {
        named: [[place('Street', { kind: 'street' })]],
        fullText: [1],
        words: [
          ['bank', 3],
          ['street', 90],
        ],
      });
      expect(street.calls).not.toContainEqual(expect.stringMatching(/^category:/));
      expect(street.step).toBe('full-text');
    });

    it('is no category when the whole query is also a town', async () => {
      const r = await run('Spring', { named: [[place('Spring')], [place('Spring')]], fullText: [1] });
      expect(r.calls).not.toContainEqual(expect.stringMatching(/^category:/));
    });

    it('is no category when the whole query, the rest included, is the name of a place', async () => {
      const castle = place('Schloss Vaduz', { kind: 'poi' });
      const r = await run('Schloss Vaduz', { named: [[castle], [castle]], fullText: [1] });
      expect(r.calls).not.toContainEqual(expect.stringMatching(/^category:/));
      expect(r.step).toBe('full-text');
    });

    it('asks for the places the whole query names once (named-places reuses the answer)', async () => {
      const street = place('Cherry Place', { kind: 'street' });
      const r = await run('Cherry Place', { named: [[street]], fullText: [1] });
      expect(r.calls).toEqual(['named:cherry place', 'fullText:cherry place']);
      expect(r.state.places).toEqual([street]);
    });
  });

  describe('named-region', () => {
    it('binds the search to a country named at the end, asking nothing more when its words name a place there', async () => {
      const r = await run('Vaduz, Italy', { named: [[place('Vaduz')]], fullText: [0] });
      expect(r.state.region).toBe('IT');
      expect(r.calls.filter((c) => c.startsWith('named:'))).toEqual(['named:vaduz']);
    });

    it('does not read a town written with a symbol ("At&t") as the country code left of it (AT)', async () => {
      const town = place('At&t');
      const r = await run('Wilson Road, At&t', {
        named: [[town]],
        fullText: [1],
        words: [
          ['wilson', 9],
          ['road', 90],
        ],
      });
      expect(r.calls[0]).toBe('named:wilson road at');
      expect(r.state.namedRegion).toBeNull();
      expect(r.state.region).toBeNull();
      expect(r.step).toBe('full-text');
      const code = await run('Wilson Road, AT', {
        named: [[town]],
        fullText: [1],
        words: [
          ['wilson', 9],
          ['road', 90],
        ],
      });
      expect(code.state.region).toBe('AT');
    });

    it('does not bind to a country whose name ends the words after a comma that name a town ("South Jordan")', async () => {
      const town = place('South Jordan');
      const r = await run('Dogwood Shores, South Jordan', { named: [[town], [town]], fullText: [1] });
      expect(r.calls[0]).toBe('named:south jordan');
      expect(r.state.namedRegion).toBeNull();
      expect(r.state.region).toBeNull();
      const amman = await run('Main Street, Amman Jordan', { named: [[], [place('Amman')]], fullText: [1] });
      expect(amman.calls[0]).toBe('named:amman jordan');
      expect(amman.state.region).toBe('JO');
    });

    it('unbinds a query that is, whole, the name of a place ("Made in Italy", a shop)', async () => {
      const shop = place('Made in Italy', { kind: 'poi' });
      const r = await run('Made in Italy', { named: [[], [shop]], fullText: [1] });
      expect(r.calls.slice(0, 2)).toEqual(['named:made in', 'named:made in italy']);
      expect(r.state.namedRegion).toBeNull();
      expect(r.state.region).toBeNull();
      expect(r.state.ran).toContain('whole-query-places');
      expect(r.step).toBe('full-text');
    });

    it('unbinds a query that is, whole, one of a place\'s other names ("Alma Ata", Almaty, not Alma in Antarctica)', async () => {
      const almaty = place('Almaty', { altNames: 'Alma Ata | Alma-Ata | Kazakhstan' });
      const r = await run('Alma Ata', { named: [[], [almaty]], fullText: [1] });
      expect(r.calls.slice(0, 2)).toEqual(['named:alma', 'named:alma ata']);
      expect(r.state.namedRegion).toBeNull();
      expect(r.state.ran).toContain('whole-query-places');
      expect(r.step).toBe('full-text');
    });

    it('keeps a query bound when, whole, it names no place (whole-query-places does not run)', async () => {
      const r = await run('Herrengasse, Italy', { named: [[], []], fullText: [1] });
      expect(r.state.namedRegion?.code).toBe('IT');
      expect(r.state.ran).not.toContain('whole-query-places');
    });
  });
});
