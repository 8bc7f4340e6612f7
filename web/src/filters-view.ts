import { attachRegionPicker } from './region-picker';
import { activeFilterCount, CompassPoint, Filters, formatDistance, isCompassPoint, Near } from './search-state';

// The filter controls <-> the search's Filters: region, capture dates, interactive, facing and near.
// main.ts owns the search; this file owns the controls and tells it when the user changed one.

export interface FiltersView {
  /** The filters the controls show. `centre` is where a new near-search is centred (the map's). */
  read(current: Filters, centre: () => { lat: number; lon: number } | undefined, newCentre: boolean): Filters;
  /** Shows filters in the controls; resolves with the region once the lists have judged it (see RegionPicker.show). */
  show(filters: Filters): Promise<string | undefined>;
}

export function attachFilters(onChange: (options: { newCentre: boolean }) => void): FiltersView {
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const details = $<HTMLDetailsElement>('filters');
  const count = $<HTMLSpanElement>('filter-count');
  const capturedAfter = $<HTMLInputElement>('captured-after');
  const capturedBefore = $<HTMLInputElement>('captured-before');
  const interactive = $<HTMLSelectElement>('interactive');
  const nearEnabled = $<HTMLInputElement>('near-enabled');
  const nearRadius = $<HTMLSelectElement>('near-radius');
  const facingRadios = [...details.querySelectorAll<HTMLInputElement>('input[name="facing"]')];

  const changed = () => onChange({ newCentre: false });
  const regions = attachRegionPicker($<HTMLSelectElement>('region-country'), $<HTMLSelectElement>('region'), changed);
  details.addEventListener('toggle', () => details.open && regions.prepare());
  for (const control of [capturedAfter, capturedBefore, interactive, nearRadius, ...facingRadios]) {
    control.addEventListener('change', changed);
  }
  // Turning it on takes the centre of the map as it is now.
  nearEnabled.addEventListener('change', () => onChange({ newCentre: nearEnabled.checked }));

  function showCount(filters: Filters): void {
    const n = activeFilterCount(filters);
    count.hidden = n === 0;
    count.textContent = String(n);
    count.setAttribute('aria-label', `${n} active`);
    if (n > 0) details.open = true;
  }

  return {
    read(current, centre, newCentre) {
      const filters: Filters = {};
      if (capturedAfter.value) filters.capturedAfter = capturedAfter.value;
      if (capturedBefore.value) filters.capturedBefore = capturedBefore.value;
      if (interactive.value) filters.interactive = interactive.value === 'true';
      const region = regions.value();
      if (region) filters.region = region;
      const facing = facingRadios.find((r) => r.checked)?.value ?? '';
      if (isCompassPoint(facing)) filters.facing = facing;
      if (nearEnabled.checked) {
        // Keep the searched centre while only the radius changes; a new centre comes from the map.
        const at: Omit<Near, 'radiusM'> | undefined = (newCentre ? undefined : current.near) ?? centre();
        if (at) filters.near = { lat: at.lat, lon: at.lon, radiusM: Number(nearRadius.value) };
      }
      return filters;
    },

    async show(f) {
      capturedAfter.value = f.capturedAfter ?? '';
      capturedBefore.value = f.capturedBefore ?? '';
      capturedBefore.min = f.capturedAfter ?? '1900-01-01';
      capturedAfter.max = f.capturedBefore ?? '2999-12-31';
      interactive.value = f.interactive === undefined ? '' : String(f.interactive);
      const facing: CompassPoint | 'any' = f.facing ?? 'any';
      $<HTMLInputElement>(`facing-${facing}`).checked = true;
      nearEnabled.checked = f.near !== undefined;
      if (f.near) {
        const known = [...nearRadius.options].some((o) => o.value === String(f.near!.radiusM));
        if (!known) nearRadius.add(new Option(formatDistance(f.near.radiusM), String(f.near.radiusM)));
        nearRadius.value = String(f.near.radiusM);
      }
      showCount(f);
      const region = await regions.show(f.region);
      if (region !== f.region) showCount({ ...f, region });
      return region;
    },
  };
}
