import type { ViewedRecord } from './api';
import { photoVariantUrl } from './image-urls';
import { cameraName, facingText } from './viewer-text';

// What the viewer (web/src/viewer.ts) says about the image it shows: its metadata, and the strip of the
// other dates at its spot. Built with DOM nodes and textContent only: catalogue text is never parsed
// as HTML.

export function renderMeta(list: HTMLElement, record: ViewedRecord, interactive360: boolean): void {
  const rows: [string, string | Node][] = [
    ['Date', record.date],
    ['Facing', interactive360 ? `360°, its centre: ${facingText(record)}` : facingText(record)],
    ['Address', record.address],
  ];
  const camera = cameraName(record.camera);
  if (camera) rows.push(['Camera', camera]);
  if (record.sequence) rows.push(['Sequence', `No. ${record.sequence.index + 1} in its sequence`]);
  const original = photoVariantUrl(record.image, 'original');
  if (original) {
    const link = document.createElement('a');
    link.href = original;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = 'The camera file';
    rows.push(['Original', link]);
  }
  list.replaceChildren(
    ...rows.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.append(value);
      dd.dataset.term = term.toLowerCase();
      return [dt, dd];
    }),
  );
}

/** The other dates at the record's spot, newest first, each a button that shows that record. */
export function renderDates(list: HTMLUListElement, record: ViewedRecord, onChoose: (id: string) => void): void {
  if (record.history.length === 0) {
    const none = document.createElement('li');
    none.className = 'viewer-date-none';
    none.textContent = 'No other dates at this spot.';
    list.replaceChildren(none);
    return;
  }
  list.replaceChildren(
    ...record.history.map((entry) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'viewer-date';
      button.dataset.id = entry.id;
      button.textContent = entry.date;
      button.setAttribute('aria-label', `Show this spot on ${entry.date}`);
      button.addEventListener('click', () => onChoose(entry.id));
      item.append(button);
      return item;
    }),
  );
}
