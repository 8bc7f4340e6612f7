import type { ImageryRecord } from './api';

const DEBOUNCE_MS = 200;
const MIN_CHARS = 2;

export interface SuggestionSource {
  fetch(query: string, signal: AbortSignal): Promise<ImageryRecord[]>;
  onChoose(record: ImageryRecord): void;
}

// An ARIA 1.2 combobox: the list follows typing, arrows move through it, Enter picks, Escape closes.
export function attachSuggestions(input: HTMLInputElement, listbox: HTMLUListElement, source: SuggestionSource) {
  const latest = latestSuggestions(source.fetch.bind(source));
  let options: ImageryRecord[] = [];
  let active = -1;

  const close = () => {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };

  const setActive = (index: number) => {
    active = index;
    markActive(input, listbox, index);
  };

  const choose = (index: number) => {
    const record = options[index];
    if (!record) return;
    input.value = record.address;
    close();
    source.onChoose(record);
  };

  const render = () => {
    listbox.replaceChildren(
      ...options.map((record, i) => {
        const li = suggestionItem(record, i);
        // mousedown, not click: it runs before the input's blur closes the list.
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          choose(i);
        });
        li.addEventListener('mousemove', () => active !== i && setActive(i));
        return li;
      }),
    );
    if (options.length === 0 || document.activeElement !== input) return close();
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    setActive(-1);
  };

  input.addEventListener('input', () => {
    latest.cancel();
    const query = input.value.trim();
    if (query.length < MIN_CHARS) return close();
    // A failed fetch closes the list: errors show when the full search runs.
    latest.request(
      query,
      (records) => {
        options = records;
        render();
      },
      close,
    );
  });

  input.addEventListener('keydown', (e) => {
    if (listbox.hidden) return;
    const action = keyAction(e.key, active, options.length);
    if (action === null) return;
    e.preventDefault();
    if (action === 'choose') choose(active);
    else if (action === 'close') close();
    else setActive(action);
  });

  input.addEventListener('blur', close);

  return {
    // A full search replaces whatever the list was about to show.
    dismiss() {
      latest.cancel();
      close();
    },
  };
}

// The suggestions of the latest query, fetched once typing pauses for DEBOUNCE_MS: a request or a
// cancel drops whatever an earlier request was about to answer.
function latestSuggestions(fetch: SuggestionSource['fetch']): {
  request(query: string, answer: (records: ImageryRecord[]) => void, fail: () => void): void;
  cancel(): void;
} {
  let timer: number | undefined;
  let inFlight: AbortController | undefined;
  const cancel = () => {
    window.clearTimeout(timer);
    inFlight?.abort();
    inFlight = undefined;
  };
  return {
    cancel,
    request(query, answer, fail) {
      cancel();
      timer = window.setTimeout(async () => {
        const controller = new AbortController();
        inFlight = controller;
        try {
          const records = await fetch(query, controller.signal);
          if (inFlight === controller) answer(records);
        } catch {
          if (inFlight === controller) fail();
        }
      }, DEBOUNCE_MS);
    },
  };
}

// One option of the list: the address, then its date, direction and whether it is a 360-degree image.
function suggestionItem(record: ImageryRecord, index: number): HTMLLIElement {
  const li = document.createElement('li');
  li.id = `suggestion-${index}`;
  li.setAttribute('role', 'option');
  li.setAttribute('aria-selected', 'false');
  const address = document.createElement('span');
  address.className = 'suggestion-address';
  address.textContent = record.address;
  const meta = document.createElement('span');
  meta.className = 'suggestion-meta';
  meta.textContent = `${record.date} · ${record.compass.replace(/^Facing /, '')}${record.interactive ? ' · 360°' : ''}`;
  li.append(address, meta);
  return li;
}

// What a key does in the open list: move to an option (its index), choose the active one, close, or
// nothing (null: the key keeps its usual meaning).
function keyAction(key: string, active: number, count: number): number | 'choose' | 'close' | null {
  if (key === 'ArrowDown') return (active + 1) % count;
  if (key === 'ArrowUp') return active <= 0 ? count - 1 : active - 1;
  if (key === 'Enter' && active >= 0) return 'choose';
  if (key === 'Escape') return 'close';
  return null;
}

// The option at `index` marked active (selected, named by the input, scrolled into view); -1: none.
function markActive(input: HTMLInputElement, listbox: HTMLUListElement, index: number): void {
  listbox.querySelectorAll('[role="option"]').forEach((el, i) => el.setAttribute('aria-selected', String(i === index)));
  if (index >= 0) {
    input.setAttribute('aria-activedescendant', `suggestion-${index}`);
    listbox.children[index]?.scrollIntoView({ block: 'nearest' });
  } else {
    input.removeAttribute('aria-activedescendant');
  }
}
