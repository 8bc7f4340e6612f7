import type { ImageryRecord } from './api';

const DEBOUNCE_MS = 200;
const MIN_CHARS = 2;

export interface SuggestionSource {
  fetch(query: string, signal: AbortSignal): Promise<ImageryRecord[]>;
  onChoose(record: ImageryRecord): void;
}

// An ARIA 1.2 combobox: the list follows typing, arrows move through it, Enter picks, Escape closes.
export function attachSuggestions(input: HTMLInputElement, listbox: HTMLUListElement, source: SuggestionSource) {
  let timer: number | undefined;
  let inFlight: AbortController | undefined;
  let options: ImageryRecord[] = [];
  let active = -1;

  const close = () => {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };

  const cancel = () => {
    window.clearTimeout(timer);
    inFlight?.abort();
    inFlight = undefined;
  };

  const setActive = (index: number) => {
    active = index;
    listbox
      .querySelectorAll('[role="option"]')
      .forEach((el, i) => el.setAttribute('aria-selected', String(i === index)));
    if (index >= 0) {
      input.setAttribute('aria-activedescendant', `suggestion-${index}`);
      listbox.children[index]?.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
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
        const li = document.createElement('li');
        li.id = `suggestion-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        const address = document.createElement('span');
        address.className = 'suggestion-address';
        address.textContent = record.address;
        const meta = document.createElement('span');
        meta.className = 'suggestion-meta';
        meta.textContent = `${record.date} · ${record.compass.replace(/^Facing /, '')}${record.interactive ? ' · 360°' : ''}`;
        li.append(address, meta);
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
    cancel();
    const query = input.value.trim();
    if (query.length < MIN_CHARS) return close();
    timer = window.setTimeout(async () => {
      const controller = new AbortController();
      inFlight = controller;
      try {
        options = await source.fetch(query, controller.signal);
        if (inFlight === controller) render();
      } catch {
        if (inFlight === controller) close(); // errors show when the full search runs
      }
    }, DEBOUNCE_MS);
  });

  input.addEventListener('keydown', (e) => {
    const open = !listbox.hidden;
    if (e.key === 'ArrowDown' && open) {
      e.preventDefault();
      setActive((active + 1) % options.length);
    } else if (e.key === 'ArrowUp' && open) {
      e.preventDefault();
      setActive(active <= 0 ? options.length - 1 : active - 1);
    } else if (e.key === 'Enter' && open && active >= 0) {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  });

  input.addEventListener('blur', close);

  return {
    // A full search replaces whatever the list was about to show.
    dismiss() {
      cancel();
      close();
    },
  };
}
