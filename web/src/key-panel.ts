import { cleanKey, storedKey, storeKey } from './key-store';

// The API key panel in the top bar: the key typed once and kept in this browser, or the built-in
// database's demo key while none of one's own is stored.

export interface KeyPanel {
  /** The key to send ('' when there is none). */
  key(): string;
  /** The demo key the service offers (GET /config.json), used while no key is stored. */
  offerDemoKey(demoKey: string | null): void;
  open(): void;
}

export function attachKeyPanel(onSaved: () => void): KeyPanel {
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const panel = $<HTMLDetailsElement>('key-panel');
  const summary = $<HTMLSpanElement>('key-summary');
  const form = $<HTMLFormElement>('key-form');
  const input = $<HTMLInputElement>('api-key');
  const hint = $<HTMLParagraphElement>('key-hint');
  const visibility = $<HTMLButtonElement>('key-visibility');
  const forget = $<HTMLButtonElement>('key-forget');

  let demoKey: string | null = null;
  let apiKey = storedKey() ?? '';

  function show(): void {
    const usingDemo = apiKey !== '' && apiKey === demoKey;
    input.value = apiKey;
    summary.textContent = apiKey === '' ? 'Add API key' : usingDemo ? 'Demo key' : 'API key';
    panel.dataset.state = apiKey === '' ? 'missing' : 'set';
    hint.textContent = usingDemo
      ? 'Filled in with the demo key of this built-in database. Kept in this browser only.'
      : 'Kept in this browser only and sent as the x-api-key header.';
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    apiKey = cleanKey(input.value);
    storeKey(apiKey);
    show();
    panel.open = false;
    onSaved();
  });

  forget.addEventListener('click', () => {
    storeKey('');
    apiKey = demoKey ?? '';
    show();
    input.focus();
  });

  visibility.addEventListener('click', () => {
    const shown = input.type === 'password';
    input.type = shown ? 'text' : 'password';
    visibility.textContent = shown ? 'Hide' : 'Show';
    visibility.setAttribute('aria-pressed', String(shown));
  });

  panel.addEventListener('toggle', () => {
    if (panel.open) input.focus();
  });
  // The panel closes like a popover: Escape (focus back on its button) or a click elsewhere.
  panel.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !panel.open) return;
    panel.open = false;
    panel.querySelector('summary')?.focus();
  });
  document.addEventListener('click', (e) => {
    if (panel.open && !panel.contains(e.target as Node)) panel.open = false;
  });

  return {
    key: () => apiKey,
    offerDemoKey(key) {
      demoKey = key;
      if (!apiKey && key) apiKey = key;
      show();
    },
    open: () => (panel.open = true),
  };
}
