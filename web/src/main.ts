import 'maplibre-gl/dist/maplibre-gl.css';
import './styles.css';
import { ApiError, ImageryRecord, pageConfig, PageConfig, search } from './api';
import { cleanKey, storedKey, storeKey } from './key-store';
import { createMapView, MapView } from './map-view';
import { renderResults, setResultHighlight } from './results-view';
import {
  activeFilterCount,
  CompassPoint,
  Filters,
  hasSearch,
  isCompassPoint,
  lastReachablePage,
  PAGE_SIZE,
  requestBody,
  SearchState,
  stateFromUrl,
  stateToUrl,
  SUGGESTION_LIMIT,
} from './search-state';
import { attachSuggestions } from './suggestions';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const ui = {
  keyPanel: $<HTMLDetailsElement>('key-panel'),
  keySummary: $<HTMLSpanElement>('key-summary'),
  keyForm: $<HTMLFormElement>('key-form'),
  keyInput: $<HTMLInputElement>('api-key'),
  keyHint: $<HTMLParagraphElement>('key-hint'),
  keyVisibility: $<HTMLButtonElement>('key-visibility'),
  keyForget: $<HTMLButtonElement>('key-forget'),
  form: $<HTMLFormElement>('search-form'),
  query: $<HTMLInputElement>('query'),
  suggestions: $<HTMLUListElement>('suggestions'),
  filters: $<HTMLDetailsElement>('filters'),
  filterCount: $<HTMLSpanElement>('filter-count'),
  capturedAfter: $<HTMLInputElement>('captured-after'),
  capturedBefore: $<HTMLInputElement>('captured-before'),
  interactive: $<HTMLSelectElement>('interactive'),
  nearEnabled: $<HTMLInputElement>('near-enabled'),
  nearRadius: $<HTMLSelectElement>('near-radius'),
  clearFilters: $<HTMLButtonElement>('clear-filters'),
  resultsHeading: $<HTMLHeadingElement>('results-heading'),
  status: $<HTMLParagraphElement>('status'),
  welcome: $<HTMLDivElement>('welcome'),
  empty: $<HTMLDivElement>('empty'),
  emptyTitle: $<HTMLParagraphElement>('empty-title'),
  emptyHint: $<HTMLParagraphElement>('empty-hint'),
  emptyClear: $<HTMLButtonElement>('empty-clear'),
  examples: $<HTMLDivElement>('examples'),
  results: $<HTMLOListElement>('results'),
  pager: $<HTMLElement>('pager'),
  prev: $<HTMLButtonElement>('prev-page'),
  next: $<HTMLButtonElement>('next-page'),
  pageInfo: $<HTMLSpanElement>('page-info'),
  map: $<HTMLDivElement>('map'),
  searchHere: $<HTMLButtonElement>('search-here'),
};

const DEMO_EXAMPLES = ['Beverly Hills', 'Springfield', 'Paris', '10001'];

let state: SearchState = stateFromUrl(location.search);
let config: PageConfig = { demoKey: null };
let apiKey = storedKey() ?? '';
let running: AbortController | undefined;
let pageTotal = 0;

const map: MapView | null = createMapView(ui.map, {
  onMarkerHover: (id) => highlight(id),
  onMarkerClick: (id) => {
    const item = highlight(id);
    item?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    item?.querySelector<HTMLButtonElement>('.result-address')?.focus({ preventScroll: true });
  },
  onUserMove: () => {
    if (state.filters.near) ui.searchHere.hidden = false;
  },
});

function highlight(id: string | null): HTMLElement | null {
  map?.highlight(id);
  return setResultHighlight(ui.results, id);
}

// ---- the API key --------------------------------------------------------------------------------

function showKeyState(): void {
  const usingDemo = apiKey !== '' && apiKey === config.demoKey;
  ui.keyInput.value = apiKey;
  ui.keySummary.textContent = apiKey === '' ? 'Add API key' : usingDemo ? 'Demo key' : 'API key';
  ui.keyPanel.dataset.state = apiKey === '' ? 'missing' : 'set';
  ui.keyHint.textContent = usingDemo
    ? 'Filled in with the demo key of this built-in database. Kept in this browser only.'
    : 'Kept in this browser only and sent as the x-api-key header.';
}

ui.keyForm.addEventListener('submit', (e) => {
  e.preventDefault();
  apiKey = cleanKey(ui.keyInput.value);
  storeKey(apiKey);
  showKeyState();
  ui.keyPanel.open = false;
  if (hasSearch(state)) void runSearch(false);
  else ui.query.focus();
});

ui.keyForget.addEventListener('click', () => {
  storeKey('');
  apiKey = config.demoKey ?? '';
  showKeyState();
  ui.keyInput.focus();
});

ui.keyVisibility.addEventListener('click', () => {
  const show = ui.keyInput.type === 'password';
  ui.keyInput.type = show ? 'text' : 'password';
  ui.keyVisibility.textContent = show ? 'Hide' : 'Show';
  ui.keyVisibility.setAttribute('aria-pressed', String(show));
});

ui.keyPanel.addEventListener('toggle', () => {
  if (ui.keyPanel.open) ui.keyInput.focus();
});
// The panel closes like a popover: Escape (focus back on its button) or a click elsewhere.
ui.keyPanel.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !ui.keyPanel.open) return;
  ui.keyPanel.open = false;
  ui.keyPanel.querySelector('summary')?.focus();
});
document.addEventListener('click', (e) => {
  if (ui.keyPanel.open && !ui.keyPanel.contains(e.target as Node)) ui.keyPanel.open = false;
});

// ---- filters ------------------------------------------------------------------------------------

function filtersFromControls(): Filters {
  const filters: Filters = {};
  if (ui.capturedAfter.value) filters.capturedAfter = ui.capturedAfter.value;
  if (ui.capturedBefore.value) filters.capturedBefore = ui.capturedBefore.value;
  if (ui.interactive.value) filters.interactive = ui.interactive.value === 'true';
  const facing = ui.form.querySelector<HTMLInputElement>('input[name="facing"]:checked')?.value ?? '';
  if (isCompassPoint(facing)) filters.facing = facing;
  if (ui.nearEnabled.checked) {
    const radiusM = Number(ui.nearRadius.value);
    // Keep the searched centre while only the radius changes; a new centre comes from the map.
    const centre = state.filters.near ?? map?.center();
    if (centre) filters.near = { lat: centre.lat, lon: centre.lon, radiusM };
  }
  return filters;
}

function controlsFromState(): void {
  ui.query.value = state.query;
  const f = state.filters;
  ui.capturedAfter.value = f.capturedAfter ?? '';
  ui.capturedBefore.value = f.capturedBefore ?? '';
  ui.capturedBefore.min = f.capturedAfter ?? '1900-01-01';
  ui.capturedAfter.max = f.capturedBefore ?? '2999-12-31';
  ui.interactive.value = f.interactive === undefined ? '' : String(f.interactive);
  const facing: CompassPoint | 'any' = f.facing ?? 'any';
  $<HTMLInputElement>(`facing-${facing}`).checked = true;
  ui.nearEnabled.checked = f.near !== undefined;
  if (f.near) {
    const known = [...ui.nearRadius.options].some((o) => o.value === String(f.near!.radiusM));
    if (!known) ui.nearRadius.add(new Option(formatDistance(f.near.radiusM), String(f.near.radiusM)));
    ui.nearRadius.value = String(f.near.radiusM);
  }
  showFilterCount();
}

function showFilterCount(): void {
  const count = activeFilterCount(state.filters);
  ui.filterCount.hidden = count === 0;
  ui.filterCount.textContent = String(count);
  ui.filterCount.setAttribute('aria-label', `${count} active`);
  if (count > 0) ui.filters.open = true;
}

function formatDistance(m: number): string {
  return m >= 1000 ? `${(m / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} km` : `${m} m`;
}

function applyFilters(): void {
  state = { ...state, page: 1, filters: filtersFromControls() };
  controlsFromState();
  map?.showNear(state.filters.near ?? null);
  ui.searchHere.hidden = true;
  if (hasSearch(state)) void runSearch(true);
  else writeUrl(true);
}

for (const control of [ui.capturedAfter, ui.capturedBefore, ui.interactive, ui.nearRadius]) {
  control.addEventListener('change', applyFilters);
}
for (const radio of ui.form.querySelectorAll<HTMLInputElement>('input[name="facing"]')) {
  radio.addEventListener('change', applyFilters);
}
ui.nearEnabled.addEventListener('change', () => {
  // Turning it on takes the centre of the map as it is now.
  if (ui.nearEnabled.checked) state = { ...state, filters: { ...state.filters, near: undefined } };
  applyFilters();
});
ui.searchHere.addEventListener('click', () => {
  state = { ...state, filters: { ...state.filters, near: undefined } };
  applyFilters();
});
const clearFilters = () => {
  state = { ...state, page: 1, filters: {} };
  controlsFromState();
  map?.showNear(null);
  ui.searchHere.hidden = true;
  if (hasSearch(state)) void runSearch(true);
  else writeUrl(true);
  ui.query.focus();
};
ui.clearFilters.addEventListener('click', clearFilters);
ui.emptyClear.addEventListener('click', clearFilters);

// ---- searching ----------------------------------------------------------------------------------

const suggestions = attachSuggestions(ui.query, ui.suggestions, {
  fetch: async (query, signal) => {
    if (!apiKey) return [];
    const body = requestBody({ query, page: 1, filters: state.filters }, SUGGESTION_LIMIT);
    return (await search(apiKey, body, signal)).data;
  },
  onChoose: (record: ImageryRecord) => {
    state = { ...state, query: record.address, page: 1 };
    void runSearch(true);
  },
});

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  state = { ...state, query: ui.query.value.trim(), page: 1 };
  if (!hasSearch(state)) {
    setStatus('Type a place to search for.', 'info');
    ui.query.focus();
    return;
  }
  void runSearch(true);
});

function writeUrl(push: boolean): void {
  const url = `${location.pathname}${stateToUrl(state)}`;
  if (url === `${location.pathname}${location.search}`) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

function setStatus(text: string, kind: 'info' | 'error' = 'info'): void {
  ui.status.textContent = text;
  ui.status.dataset.kind = kind;
  // The empty-state box says it visibly; the status still announces it to screen readers.
  ui.status.classList.toggle('visually-hidden', !ui.empty.hidden && kind === 'info');
}

async function runSearch(push: boolean): Promise<void> {
  suggestions.dismiss();
  running?.abort();
  writeUrl(push);
  ui.welcome.hidden = true;
  ui.empty.hidden = true;
  if (!apiKey) {
    setStatus('Add an API key to search.', 'error');
    ui.keyPanel.open = true;
    return;
  }
  const controller = new AbortController();
  running = controller;
  document.body.classList.add('is-busy');
  ui.results.setAttribute('aria-busy', 'true');
  setStatus('Searching…');
  try {
    const response = await search(apiKey, requestBody(state), controller.signal);
    if (running !== controller) return;
    showResponse(response.data, response.page, response.pageTotal);
  } catch (error) {
    if (running !== controller || (error as Error).name === 'AbortError') return;
    showError(error as Error);
  } finally {
    if (running === controller) {
      document.body.classList.remove('is-busy');
      ui.results.removeAttribute('aria-busy');
    }
  }
}

function showResponse(records: ImageryRecord[], page: number, total: number): void {
  pageTotal = total;
  const first = (page - 1) * PAGE_SIZE + 1;
  renderResults(ui.results, records, first, {
    onHover: (id) => highlight(id),
    onShowOnMap: (id) => {
      highlight(id);
      map?.focusRecord(id);
    },
  });
  map?.showResults(records, first);
  const what = state.query ? `“${state.query}”` : 'this area';
  const filtered = activeFilterCount(state.filters) > 0;
  ui.empty.hidden = total !== 0;
  if (total === 0) {
    ui.emptyTitle.textContent = `No imagery found for ${what}`;
    ui.emptyHint.textContent = filtered ? 'Try fewer filters, or another spelling.' : 'Try another spelling, or a nearby place.';
    ui.emptyClear.hidden = !filtered;
    setStatus(`No imagery found for ${what}.`);
  } else if (records.length === 0) {
    setStatus(`Page ${page} is past the last page (${total}).`);
  } else {
    const range = records.length === 1 ? `Result ${first}` : `Results ${first}–${first + records.length - 1}`;
    setStatus(`${range} for ${what}, page ${page} of ${total.toLocaleString('en-US')}.`);
  }
  showPager(page, total);
}

function showPager(page: number, total: number): void {
  ui.pager.hidden = total <= 1;
  const last = lastReachablePage(total);
  ui.pageInfo.textContent = `Page ${page.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
  ui.prev.disabled = page <= 1;
  ui.next.disabled = page >= last;
  ui.next.title = page >= last && last < total ? 'The API serves the first 10,000 results; narrow the search to see more.' : '';
}

function showError(error: Error): void {
  ui.empty.hidden = true;
  renderResults(ui.results, [], 1, { onHover: () => undefined, onShowOnMap: () => undefined });
  map?.showResults([], 1);
  ui.pager.hidden = true;
  if (error instanceof ApiError) {
    if (error.isKeyProblem) {
      setStatus(`${error.message}. Check the API key.`, 'error');
      ui.keyPanel.open = true;
      return;
    }
    const fields = error.details.map((d) => d.message).join('; ');
    setStatus(fields || error.message, 'error');
    return;
  }
  setStatus('Something went wrong. Please try again.', 'error');
}

function goToPage(page: number): void {
  state = { ...state, page };
  void runSearch(true).then(() => {
    ui.resultsHeading.focus({ preventScroll: true });
    ui.resultsHeading.scrollIntoView({ block: 'start', behavior: 'smooth' });
  });
}
ui.prev.addEventListener('click', () => goToPage(Math.max(1, state.page - 1)));
ui.next.addEventListener('click', () => goToPage(Math.min(lastReachablePage(pageTotal), state.page + 1)));

// Back and forward walk through earlier searches.
window.addEventListener('popstate', () => {
  state = stateFromUrl(location.search);
  controlsFromState();
  restoreNear();
  if (hasSearch(state)) void runSearch(false);
  else showWelcome();
});

function restoreNear(): void {
  const near = state.filters.near;
  map?.showNear(near ?? null);
  if (near) map?.jumpTo(near.lat, near.lon, near.radiusM);
}

function showWelcome(): void {
  running?.abort();
  ui.empty.hidden = true;
  ui.results.replaceChildren();
  map?.showResults([], 1);
  ui.pager.hidden = true;
  ui.welcome.hidden = false;
  setStatus('');
}

// ---- start --------------------------------------------------------------------------------------

async function start(): Promise<void> {
  controlsFromState();
  restoreNear();
  config = await pageConfig();
  if (!apiKey && config.demoKey) apiKey = config.demoKey;
  showKeyState();
  if (config.demoKey) {
    ui.examples.hidden = false;
    for (const example of DEMO_EXAMPLES) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'chip';
      button.textContent = example;
      button.addEventListener('click', () => {
        ui.query.value = example;
        state = { ...state, query: example, page: 1 };
        void runSearch(true);
      });
      ui.examples.append(button);
    }
  }
  document.body.dataset.ready = 'true';
  if (hasSearch(state)) await runSearch(false);
  else if (!apiKey) {
    setStatus('Add an API key to start searching.', 'info');
    ui.keyPanel.open = true;
  } else if (window.matchMedia('(min-width: 821px)').matches) {
    ui.query.focus(); // not on phones, where focus pops up the keyboard over the page
  }
}

void start();
