import type { ImageryRecord } from './api';
import type { MatchedPlace } from './place-text';
import { headingOf } from './search-state';

// The HTML markers of the map (web/src/map-view.ts): numbered results with their heading, and matched places.

export function markerElement(record: ImageryRecord, number: number): HTMLElement {
  const element = document.createElement('div');
  element.className = record.interactive ? 'marker marker-interactive' : 'marker';
  element.dataset.id = record.id;
  // The list is the accessible twin of the map: markers are pointer conveniences only.
  element.setAttribute('aria-hidden', 'true');
  const heading = headingOf(record.compass);
  if (heading !== null) {
    const cone = document.createElement('span');
    cone.className = 'marker-cone';
    cone.style.setProperty('--heading', `${heading}deg`);
    element.append(cone);
  }
  const dot = document.createElement('span');
  dot.className = 'marker-dot';
  dot.textContent = String(number);
  element.append(dot);
  element.title = `${number}. ${record.address} (${record.compass})`;
  return element;
}

export function placeElement(place: MatchedPlace): HTMLElement {
  const element = document.createElement('div');
  element.className = 'place-marker';
  element.dataset.placeId = place.id;
  element.dataset.kind = place.kind;
  element.dataset.lngLat = `${place.lon},${place.lat}`;
  element.setAttribute('aria-hidden', 'true'); // each result names its place in the list
  const pin = document.createElement('span');
  pin.className = 'place-pin';
  const name = document.createElement('span');
  name.className = 'place-name';
  name.textContent = place.label;
  element.append(pin, name);
  return element;
}

// The point searched (coordinates or a plus code): a pin standing on it, unlike the places' diamonds.
export function searchPinElement(): HTMLElement {
  const element = document.createElement('div');
  element.className = 'search-pin';
  element.setAttribute('aria-hidden', 'true'); // the status line names what was searched
  element.title = 'The point searched';
  return element;
}
