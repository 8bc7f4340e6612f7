import { ApiError, ImageryRecord, viewedRecord, ViewedRecord } from './api';
import { photoVariantUrl, viewHeading } from './image-urls';
import type { ViewedSpot, ViewingMarker } from './map-viewing';
import type { PanoramaView } from './panorama-view';
import { displayImageUrl } from './search-state';
import { renderDates, renderMeta } from './viewer-details';
import { facingText } from './viewer-text';
import './viewer.css';

// The viewer: a result opened in a modal dialog (web/index.html's #viewer). A flat image at its hd size
// with its metadata; a 360 image in Photo Sphere Viewer (web/src/panorama-view.ts), facing the place
// searched (the heading its rendered view faces) and then whichever way the person turned it; arrows
// (buttons and the left and right keys) along its sequence; a strip of the other dates at its spot.
// Each image is GET /images/{id} with the page's key. The map follows through `hooks.viewing`.

export interface ViewerHooks {
  key(): string;
  /** The map's marker of the image viewed, when there is a map. */
  viewing(): ViewingMarker | null;
}

export interface ImageViewer {
  open(record: ImageryRecord, opener: HTMLElement): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function createViewer(hooks: ViewerHooks): ImageViewer {
  const viewer = new Viewer(hooks);
  return { open: (record, opener) => viewer.open(record, opener) };
}

class Viewer {
  private readonly ui = {
    dialog: $<HTMLDialogElement>('viewer'),
    title: $<HTMLHeadingElement>('viewer-title'),
    close: $<HTMLButtonElement>('viewer-close'),
    image: $<HTMLImageElement>('viewer-image'),
    sphere: $<HTMLDivElement>('viewer-sphere'),
    note: $<HTMLParagraphElement>('viewer-note'),
    prev: $<HTMLButtonElement>('viewer-prev'),
    next: $<HTMLButtonElement>('viewer-next'),
    meta: $<HTMLElement>('viewer-meta'),
    dates: $<HTMLUListElement>('viewer-dates'),
    status: $<HTMLParagraphElement>('viewer-status'),
  };
  private current: ViewedRecord | null = null;
  private opener: HTMLElement | null = null;
  private loading: AbortController | null = null;
  private panorama: PanoramaView | null = null;
  // The compass heading a panorama is looked at: the place's at first, then carried along the street.
  private facing: number | null = null;

  constructor(private readonly hooks: ViewerHooks) {
    const { ui } = this;
    ui.prev.addEventListener('click', () => this.step('previous'));
    ui.next.addEventListener('click', () => this.step('next'));
    ui.close.addEventListener('click', () => ui.dialog.close());
    ui.dialog.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const which = e.key === 'ArrowLeft' ? 'previous' : e.key === 'ArrowRight' ? 'next' : null;
      if (!which) return;
      e.preventDefault();
      this.step(which);
    });
    // A click beside the dialog (on its backdrop) closes it, as Escape does.
    ui.dialog.addEventListener('click', (e) => {
      if (e.target !== ui.dialog) return;
      const box = ui.dialog.getBoundingClientRect();
      const inside = e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
      if (!inside) ui.dialog.close();
    });
    ui.dialog.addEventListener('close', () => this.closed());
  }

  open(record: ImageryRecord, opener: HTMLElement): void {
    this.opener = opener;
    this.facing = viewHeading(displayImageUrl(record.image, location.origin));
    this.ui.title.textContent = record.address;
    if (!this.ui.dialog.open) this.ui.dialog.showModal();
    void this.show(record.id);
  }

  private async show(id: string): Promise<void> {
    const { ui } = this;
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    ui.dialog.dataset.state = 'loading';
    ui.dialog.setAttribute('aria-busy', 'true');
    try {
      const record = await viewedRecord(this.hooks.key(), id, controller.signal);
      if (this.loading !== controller) return;
      this.current = record;
      const isPanorama = record.camera?.projection === 'equirectangular';
      this.describe(record, isPanorama);
      const heading = isPanorama ? (this.facing ?? record.heading) : record.heading;
      this.hooks.viewing()?.show(spotOf(record, heading), coveredLeft(ui.dialog));
      if (isPanorama) await this.showPanorama(record);
      else await this.showFlat(record);
      if (this.loading !== controller) return;
      ui.dialog.dataset.state = 'shown';
    } catch (error) {
      if (this.loading !== controller || (error as Error).name === 'AbortError') return;
      this.showNote(error instanceof ApiError ? error.message : 'The image could not be loaded.');
    } finally {
      if (this.loading === controller) ui.dialog.removeAttribute('aria-busy');
    }
  }

  private describe(record: ViewedRecord, isPanorama: boolean): void {
    const { ui } = this;
    ui.dialog.dataset.id = record.id;
    ui.title.textContent = record.address;
    ui.note.hidden = true;
    renderMeta(ui.meta, record, isPanorama);
    renderDates(ui.dates, record, (id) => void this.show(id).then(() => this.keepFocus()));
    ui.prev.disabled = !record.sequence?.previous;
    ui.next.disabled = !record.sequence?.next;
    ui.status.textContent = `Showing ${record.address}, ${record.date}.`;
  }

  private async showFlat(record: ViewedRecord): Promise<void> {
    const { ui } = this;
    this.panorama?.destroy();
    this.panorama = null;
    ui.sphere.hidden = true;
    const image = displayImageUrl(record.image, location.origin);
    ui.image.src = photoVariantUrl(image, 'hd') ?? image;
    ui.image.alt = `The image of ${record.address}, ${record.date}, ${facingText(record)}`;
    ui.image.hidden = false;
    await ui.image.decode();
  }

  private async showPanorama(record: ViewedRecord): Promise<void> {
    const { ui } = this;
    ui.image.hidden = true;
    ui.image.removeAttribute('src');
    ui.sphere.hidden = false;
    ui.sphere.setAttribute(
      'aria-label',
      `360° image of ${record.address}, ${record.date}: drag it, or use the buttons in its bar, to look around`,
    );
    // The panorama itself (hd: 2048 x 1024, still equirectangular) from this service, whose page this
    // is (the content security policy lets the viewer fetch from here only).
    const hd = new URL(photoVariantUrl(displayImageUrl(record.image, location.origin), 'hd')!);
    const own = `${location.origin}${hd.pathname}${hd.search}`;
    this.panorama ??= (await import('./panorama-view')).openPanorama(ui.sphere, (heading) => this.turned(heading));
    // The centre column faces the panorama's pose heading, which the record's own heading (its camera's
    // direction, or the direction of travel) need not be.
    const geometry = record.camera?.panorama ?? null;
    const centre = geometry?.pose_heading ?? record.heading ?? 0;
    await this.panorama.show(own, { centre, geometry }, this.facing ?? record.heading ?? centre);
  }

  private turned(heading: number): void {
    this.facing = heading;
    this.hooks.viewing()?.turn(heading);
  }

  private showNote(text: string): void {
    this.ui.dialog.dataset.state = 'error';
    this.ui.note.textContent = text;
    this.ui.note.hidden = false;
    this.ui.status.textContent = text;
  }

  // A button that went away or was disabled took the focus with it: it goes to the title, in the dialog.
  private keepFocus(): void {
    const active = document.activeElement as HTMLButtonElement | null;
    if (!active || !this.ui.dialog.contains(active) || active.disabled) this.ui.title.focus();
  }

  private step(which: 'previous' | 'next'): void {
    const id = this.current?.sequence?.[which];
    if (id) void this.show(id).then(() => this.keepFocus());
  }

  private closed(): void {
    this.loading?.abort();
    this.loading = null;
    this.panorama?.destroy();
    this.panorama = null;
    this.current = null;
    this.ui.image.removeAttribute('src');
    delete this.ui.dialog.dataset.state;
    delete this.ui.dialog.dataset.id;
    this.hooks.viewing()?.show(null);
    this.opener?.focus();
  }
}

function spotOf(record: ViewedRecord, heading: number | null): ViewedSpot {
  const [lon, lat] = record.geometry.coordinates;
  return { lon, lat, heading, interactive: record.interactive };
}

// The map's pixels on the left the dialog covers (0 when it covers all of the map, as on a phone).
function coveredLeft(dialog: HTMLElement): number {
  const map = document.getElementById('map')?.getBoundingClientRect();
  const box = dialog.getBoundingClientRect();
  if (!map || box.right >= map.right) return 0;
  return Math.max(0, Math.min(map.width, box.right - map.left));
}
