import { Map as MapLibreMap, Marker } from 'maplibre-gl';

// The image the viewer (web/src/viewer.ts) shows, on the map: a marker at its camera with its view cone
// (a panorama's turns as the person looks around), the map centred on it in the part the viewer
// leaves uncovered. Each image shown moves it, so the map follows a walk along the street.

export interface ViewedSpot {
  lon: number;
  lat: number;
  /** The compass heading looked at; null: a record that faces nothing. */
  heading: number | null;
  interactive: boolean;
}

export interface ViewingMarker {
  /** Shows the spot (null: the viewer closed); `coveredLeft`: map pixels the viewer covers on the left. */
  show(spot: ViewedSpot | null, coveredLeft?: number): void;
  /** The heading looked at now (a panorama turned). */
  turn(heading: number): void;
}

/** The zoom the map comes to for an image, unless it is closer already: the street around the camera. */
const VIEWING_ZOOM = 18;

export function attachViewing(map: MapLibreMap, maxZoom: number, reducedMotion: () => boolean): ViewingMarker {
  let marker: Marker | null = null;
  const element = document.createElement('div');
  element.className = 'viewing-marker';
  element.setAttribute('aria-hidden', 'true'); // the viewer's own text says where and which way
  const cone = document.createElement('span');
  cone.className = 'viewing-cone';
  const dot = document.createElement('span');
  dot.className = 'viewing-dot';
  element.append(cone, dot);

  const turn = (heading: number | null) => {
    cone.hidden = heading === null;
    if (heading !== null) cone.style.setProperty('--heading', `${Math.round(heading * 10) / 10}deg`);
    element.dataset.heading = heading === null ? '' : String(Math.round(heading));
  };

  return {
    show(spot, coveredLeft = 0) {
      if (!spot) {
        marker?.remove();
        marker = null;
        map.setPadding({ top: 0, right: 0, bottom: 0, left: 0 });
        return;
      }
      element.classList.toggle('is-interactive', spot.interactive);
      element.dataset.lngLat = `${spot.lon},${spot.lat}`;
      turn(spot.heading);
      marker ??= new Marker({ element, anchor: 'center' }).setLngLat([spot.lon, spot.lat]).addTo(map);
      marker.setLngLat([spot.lon, spot.lat]);
      map.easeTo({
        center: [spot.lon, spot.lat],
        zoom: Math.min(maxZoom, Math.max(map.getZoom(), VIEWING_ZOOM)),
        padding: { top: 0, right: 0, bottom: 0, left: Math.max(0, coveredLeft) },
        duration: reducedMotion() ? 0 : 400,
      });
    },
    turn,
  };
}
