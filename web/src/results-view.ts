import type { ImageryRecord } from './api';
import { cardImageUrl } from './image-urls';
import { placeText } from './place-text';
import { displayImageUrl, headingOf } from './search-state';

export interface ResultEvents {
  onHover(id: string | null): void;
  onShowOnMap(id: string): void;
  /** The card's image (or the card) was chosen: open the viewer; focus returns to `opener`. */
  onOpen(record: ImageryRecord, opener: HTMLElement): void;
}

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const PIN_ICON =
  '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M8 15s5-4.6 5-8.5A5 5 0 0 0 3 6.5C3 10.4 8 15 8 15Z"/><circle cx="8" cy="6.5" r="1.8"/></svg>';
const CALENDAR_ICON =
  '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="2" y="3" width="12" height="11" rx="2"/><path d="M2 7h12M5 1.5v3M11 1.5v3"/></svg>';

// Built with DOM nodes and textContent only: catalogue text is never parsed as HTML.
export function renderResults(
  list: HTMLOListElement,
  records: ImageryRecord[],
  firstNumber: number,
  events: ResultEvents,
): void {
  list.start = firstNumber;
  list.replaceChildren(...records.map((record, i) => resultItem(record, firstNumber + i, events)));
}

function resultItem(record: ImageryRecord, number: number, events: ResultEvents): HTMLLIElement {
  const li = el('li', 'result');
  li.dataset.id = record.id;

  const thumb = el('button', 'thumb');
  thumb.type = 'button';
  thumb.setAttribute('aria-haspopup', 'dialog');
  thumb.setAttribute('aria-label', `View the image of ${record.address}`);
  thumb.addEventListener('click', () => events.onOpen(record, thumb));
  const img = el('img');
  img.src = cardImageUrl(displayImageUrl(record.image, location.origin), record.interactive);
  img.alt = '';
  img.loading = 'lazy';
  img.decoding = 'async';
  img.width = 160;
  img.height = 100;
  img.addEventListener('error', () => thumb.classList.add('thumb-missing'), { once: true });
  thumb.append(img);

  const body = el('div', 'result-body');
  const title = el('h3', 'result-title');
  const num = el('span', 'result-number', String(number));
  num.setAttribute('aria-hidden', 'true');
  const show = el('button', 'result-address', record.address);
  show.type = 'button';
  show.setAttribute('aria-label', `${number}. ${record.address}, show on the map`);
  show.addEventListener('click', () => events.onShowOnMap(record.id));
  title.append(num, show);

  const meta = el('p', 'result-meta');
  const date = el('span', 'meta-date');
  date.innerHTML = CALENDAR_ICON; // a constant icon, no data
  date.append(el('span', undefined, record.date));
  const compass = el('span', 'meta-compass');
  const heading = headingOf(record.compass);
  const rose = el('span', 'compass-rose');
  rose.setAttribute('aria-hidden', 'true');
  if (heading !== null) rose.style.setProperty('--heading', `${heading}deg`);
  compass.append(rose, el('span', undefined, record.compass));
  meta.append(date, compass);

  const badge = record.interactive
    ? el('span', 'badge badge-interactive', '360° interactive')
    : el('span', 'badge badge-still', 'Still image');

  body.append(title, meta);
  if (record.place) body.append(placeLine(record));
  body.append(badge);
  if (record.match && APPROXIMATE.has(record.match.kind)) {
    li.dataset.approximate = record.match.kind;
    body.append(el('span', 'badge badge-approximate', APPROXIMATE.get(record.match.kind)));
  }
  li.append(thumb, body);

  // A click anywhere on the card but its buttons opens the viewer too (the keyboard's way is the image's button).
  li.addEventListener('click', (e) => {
    if (!(e.target as Element).closest('button, a')) events.onOpen(record, thumb);
  });
  li.addEventListener('mouseenter', () => events.onHover(record.id));
  li.addEventListener('mouseleave', () => events.onHover(null));
  li.addEventListener('focusin', () => events.onHover(record.id));
  li.addEventListener('focusout', (e) => {
    if (!li.contains(e.relatedTarget as Node | null)) events.onHover(null);
  });
  return li;
}

// Results that are not what was typed, and how the page says so.
const APPROXIMATE = new Map<string, string>([
  ['corrected', 'Spelling corrected'],
  ['nearby', 'Nearby'],
  ['fallback', 'Closest match'],
]);

// The place the record belongs to: "12 m from Herrengasse 35, 9490 Vaduz, facing it (8°)".
function placeLine(record: ImageryRecord): HTMLParagraphElement {
  const place = record.place!;
  const line = el('p', 'result-place');
  line.dataset.kind = place.kind;
  line.dataset.placeId = place.id;
  const icon = el('span', 'place-icon');
  icon.innerHTML = PIN_ICON; // a constant icon, no data
  const text = placeText(place, record.interactive);
  const words = el('span', 'place-text');
  words.append(text.before, el('span', 'place-label', text.label), text.after);
  line.append(icon, words);
  return line;
}

export function setResultHighlight(list: HTMLOListElement, id: string | null): HTMLElement | null {
  let match: HTMLElement | null = null;
  for (const item of list.querySelectorAll<HTMLElement>('.result')) {
    const on = item.dataset.id === id;
    item.classList.toggle('is-active', on);
    if (on) match = item;
  }
  return match;
}
