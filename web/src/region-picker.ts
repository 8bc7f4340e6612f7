import { CountryOption, countryRegions, regionCountries, RegionOption } from './api';
import { countryOf } from './search-state';

// The region control: a country select ("Any region" or one of ~250 countries) and, once a country
// is chosen, a select of its first-level regions, fetched then (the ~3,700 regions of the world never
// ride along in the bundle). Both lists are small cached JSON files from the service itself.

export interface RegionPicker {
  /** The chosen region, else the chosen country, else undefined ("Any region"). */
  value(): string | undefined;
  /**
   * Shows a code in the controls, loading the lists it needs. Resolves with the code when the lists
   * know it, undefined when they do not (the controls then show "Any region"); when the lists cannot
   * be loaded the code is kept and the API judges it.
   */
  show(code: string | undefined): Promise<string | undefined>;
  /** Loads the country list ahead of use (when the filters open); safe to call again. */
  prepare(): void;
}

export function attachRegionPicker(
  country: HTMLSelectElement,
  region: HTMLSelectElement,
  onChange: () => void,
): RegionPicker {
  const { loadCountries, loadRegions } = regionLists(country);
  // Each show or choice takes a turn; a list that arrives after a newer turn leaves the controls alone.
  let turn = 0;

  const fillRegions = (list: RegionOption[], chosen = '') => showRegions(region, list, chosen);
  const clearRegions = () => showRegions(region, [], '');

  const prepare = () => void loadCountries().catch(() => undefined);
  // Filled when the control is about to be used, and by show() on a shared URL.
  country.addEventListener('focus', prepare);
  country.addEventListener('change', () => {
    const mine = ++turn;
    clearRegions();
    onChange();
    if (!country.value) return;
    const chosen = country.value;
    void loadRegions(chosen)
      .then((list) => mine === turn && fillRegions(list))
      .catch(() => undefined); // the country alone still filters
  });
  region.addEventListener('change', () => {
    ++turn;
    onChange();
  });
  clearRegions();

  return {
    value: () => region.value || country.value || undefined,
    prepare,

    async show(code) {
      // Already shown (the controls' own choice coming back through the page's state): nothing to do.
      if (code === (region.value || country.value || undefined)) return code;
      const mine = ++turn;
      if (!code) {
        country.value = '';
        clearRegions();
        return undefined;
      }
      const cc = countryOf(code);
      try {
        const list = await loadCountries();
        if (mine !== turn) return code;
        if (!list.some((c) => c.code === cc)) return this.show(undefined);
        country.value = cc;
        clearRegions();
        const own = await loadRegions(cc);
        if (mine !== turn) return code;
        if (code !== cc && !own.some((r) => r.code === code)) return this.show(undefined);
        fillRegions(own, code === cc ? '' : code);
        return code;
      } catch {
        return code;
      }
    },
  };
}

// The two lists, each fetched once when first asked for (again after a failure); the countries are
// added to the country select as they arrive.
function regionLists(country: HTMLSelectElement): {
  loadCountries(): Promise<CountryOption[]>;
  loadRegions(code: string): Promise<RegionOption[]>;
} {
  let countries: Promise<CountryOption[]> | undefined;
  const regions = new Map<string, Promise<RegionOption[]>>();
  return {
    loadCountries() {
      countries ??= regionCountries().then((list) => {
        country.append(...list.map((c) => new Option(`${c.name} (${c.code})`, c.code)));
        return list;
      });
      countries.catch(() => (countries = undefined)); // try again next time
      return countries;
    },
    loadRegions(code) {
      let list = regions.get(code);
      if (!list) {
        list = countryRegions(code);
        regions.set(code, list);
        list.catch(() => regions.delete(code));
      }
      return list;
    },
  };
}

// The region select holding a country's regions, `chosen` selected ('' for the whole country);
// disabled when the country has none (or none is chosen).
function showRegions(region: HTMLSelectElement, list: RegionOption[], chosen: string): void {
  region.replaceChildren(
    new Option('Whole country', ''),
    ...list.map((r) => new Option(`${r.name} (${r.code})`, r.code)),
  );
  region.value = chosen;
  region.disabled = list.length === 0;
}
