import 'maplibre-gl/dist/maplibre-gl.css';
import './styles.css';
import { ImageryRecord, pageConfig, search, SearchResponse } from './api';
import { showDemoExamples } from './demo-examples';
import { attachFilters } from './filters-view';
import { attachKeyPanel } from './key-panel';
import { createMapView, MapView } from './map-view';
import { createOutcomeView } from './outcome-view';
import { renderResults, setResultHighlight } from './results-view';
import {
  activeFilterCount,
  hasSearch,
  lastReachablePage,
  PAGE_SIZE,
  requestBody,
  RESULT_INCLUDES,
  SearchState,
  stateFromUrl,
  stateToUrl,
  SUGGESTION_LIMIT,
  withQuery,
} from './search-state';
import { attachSuggestions } from './suggestions';
import { createViewer } from './viewer';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const ui = {
  form: $<HTMLFormElement>('search-form'),
  query: $<HTMLInputElement>('query'),
  suggestions: $<HTMLUListElement>('suggestions'),
  clearFilters: $<HTMLButtonElement>('clear-filters'),
  resultsHeading: $<HTMLHeadingElement>('results-heading'),
  status: $<HTMLParagraphElement>('status'),
  welcome: $<HTMLDivElement>('welcome'),
  empty: $<HTMLDivElement>('empty'),
  emptyTitle: $<HTMLParagraphElement>('empty-title'),
  emptyHint: $<HTMLParagraphElement>('empty-hint'),
  emptyClear: $<HTMLButtonElement>('empty-clear'),
  emptyWiden: $<HTMLButtonElement>('empty-widen'),
  examples: $<HTMLDivElement>('examples'),
  results: $<HTMLOListElement>('results'),
  pager: $<HTMLElement>('pager'),
  prev: $<HTMLButtonElement>('prev-page'),
  next: $<HTMLButtonElement>('next-page'),
  pageInfo: $<HTMLSpanElement>('page-info'),
  map: $<HTMLDivElement>('map'),
  searchHere: $<HTMLButtonElement>('search-here'),
};

const outcome = createOutcomeView(ui);

let state: SearchState = stateFromUrl(location.search);
let running: AbortController | undefined;
let pageTotal = 0;

// Created once /config.json says which style to show (MAP_STYLE_URL, or the offline basemap).
let map: MapView | null = null;
const mapEvents = {
  onMarkerHover: (id: string | null) => highlight(id),
  onMarkerClick: (id: string) => {
    const item = highlight(id);
    item?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    item?.querySelector<HTMLButtonElement>('.result-address')?.focus({ preventScroll: true });
  },
  onUserMove: () => {
    if (state.filters.near) ui.searchHere.hidden = false;
  },
};

const viewer = createViewer({ key: () => keys.key(), viewing: () => map?.viewing ?? null });

function highlight(id: string | null): HTMLElement | null {
  map?.highlight(id);
  return setResultHighlight(ui.results, id);
}

// ---- the API key --------------------------------------------------------------------------------

const keys = attachKeyPanel(() => {
  if (hasSearch(state)) void runSearch(false);
  else ui.query.focus();
});

// ---- filters ------------------------------------------------------------------------------------

const filters = attachFilters(({ newCentre }) => applyFilters(newCentre));

function controlsFromState(): void {
  ui.query.value = state.query;
  void showFilters();
}

// The region lists load on demand; a code they do not know (a hand-edited URL) is dropped like any
// other invalid value in a URL.
async function showFilters(): Promise<void> {
  const wanted = state.filters.region;
  const known = await filters.show(state.filters);
  if (known === wanted || state.filters.region !== wanted) return;
  state = { ...state, filters: { ...state.filters, region: known } };
  writeUrl(false);
}

function applyFilters(newCentre = false): void {
  const read = filters.read(state.filters, () => map?.center(), newCentre);
  // A radius widened around typed coordinates stays while other filters change.
  if (state.filters.queryRadiusM !== undefined && !read.near) read.queryRadiusM = state.filters.queryRadiusM;
  state = { ...state, page: 1, filters: read };
  controlsFromState();
  map?.showNear(state.filters.near ?? null);
  ui.searchHere.hidden = true;
  if (hasSearch(state)) void runSearch(true);
  else writeUrl(true);
}

ui.searchHere.addEventListener('click', () => applyFilters(true));
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
    if (!keys.key()) return [];
    // Suggest for the text as typed: a radius widened for earlier coordinates does not apply to it.
    const body = requestBody(withQuery(state, query), SUGGESTION_LIMIT);
    return (await search(keys.key(), body, signal)).data;
  },
  onChoose: (record: ImageryRecord) => {
    state = withQuery(state, record.address);
    void runSearch(true);
  },
});

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  state = withQuery(state, ui.query.value.trim());
  if (!hasSearch(state)) {
    outcome.setStatus('Type a place to search for.', 'info');
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

async function runSearch(push: boolean): Promise<void> {
  suggestions.dismiss();
  running?.abort();
  writeUrl(push);
  ui.welcome.hidden = true;
  ui.empty.hidden = true;
  if (!keys.key()) {
    outcome.setStatus('Add an API key to search.', 'error');
    keys.open();
    return;
  }
  const controller = new AbortController();
  running = controller;
  document.body.classList.add('is-busy');
  ui.results.setAttribute('aria-busy', 'true');
  outcome.setStatus('Searching…');
  try {
    const response = await search(keys.key(), requestBody(state, PAGE_SIZE, RESULT_INCLUDES), controller.signal);
    if (running !== controller) return;
    showResponse(response);
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

function showResponse(response: SearchResponse): void {
  const { data: records, page, pageTotal: total, region, region_id, interpretation } = response;
  pageTotal = total;
  const first = (page - 1) * PAGE_SIZE + 1;
  renderResults(ui.results, records, first, {
    onHover: (id) => highlight(id),
    onShowOnMap: (id) => {
      highlight(id);
      map?.focusRecord(id);
    },
    onOpen: (record, opener) => viewer.open(record, opener),
  });
  // Coordinates or a plus code: the circle searched, so even finding nothing shows where was looked.
  const searched =
    interpretation?.radius_m !== undefined && interpretation.lat !== undefined && interpretation.lon !== undefined;
  if (!state.filters.near)
    map?.showNear(
      searched ? { lat: interpretation.lat!, lon: interpretation.lon!, radiusM: interpretation.radius_m! } : null,
    );
  map?.showSearchPoint(searched ? { lat: interpretation.lat!, lon: interpretation.lon! } : null);
  map?.showResults(records, first);
  // The region as the API named it: "for “Vaduz” in Liechtenstein".
  const what = `${state.query ? `“${state.query}”` : 'this area'}${region_id ? ` in ${region}` : ''}`;
  outcome.showResponse(response, { what, filtered: activeFilterCount(state.filters) > 0, onWiden: widenRadius });
}

// Coordinates (or a plus code) with nothing within the radius: widening searches again around the
// same point, without the map-centre area (the API refuses two points).
function widenRadius(radiusM: number): void {
  const { near: _near, ...rest } = state.filters;
  state = { ...state, page: 1, filters: { ...rest, queryRadiusM: radiusM } };
  controlsFromState();
  map?.showNear(null);
  void runSearch(true);
}

function showError(error: Error): void {
  renderResults(ui.results, [], 1, { onHover: () => undefined, onShowOnMap: () => undefined, onOpen: () => undefined });
  map?.showResults([], 1);
  map?.showSearchPoint(null);
  if (outcome.showError(error)) keys.open();
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
  outcome.clear();
  ui.results.replaceChildren();
  map?.showResults([], 1);
  map?.showSearchPoint(null);
  ui.welcome.hidden = false;
}

// ---- start --------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const configured = pageConfig();
  controlsFromState();
  const config = await configured;
  map = createMapView(ui.map, mapEvents, { styleUrl: config.mapStyleUrl, apiKey: () => keys.key() });
  restoreNear();
  await showFilters(); // a shared URL's region is checked before its search runs
  keys.offerDemoKey(config.demoKey);
  if (config.demoKey)
    showDemoExamples(ui.examples, (example) => {
      ui.query.value = example;
      state = withQuery(state, example);
      void runSearch(true);
    });
  document.body.dataset.ready = 'true';
  if (hasSearch(state)) await runSearch(false);
  else if (!keys.key()) {
    outcome.setStatus('Add an API key to start searching.', 'info');
    keys.open();
  } else if (window.matchMedia('(min-width: 821px)').matches) {
    ui.query.focus(); // not on phones, where focus pops up the keyboard over the page
  }
}

void start();
