import { PanoData, Viewer } from '@photo-sphere-viewer/core';
import type { PanoramaGeometry } from './api';

// A 360 image in Photo Sphere Viewer (@photo-sphere-viewer/core, three.js), for the viewer
// (web/src/viewer.ts). Loaded on demand: this module and three.js are a chunk of their own, fetched the
// first time a panorama is opened, so a page that never opens one never downloads them.
//
// Headings are compass degrees. The centre column of a panorama faces its `centre` heading, so the
// compass heading h is PSV's yaw h - centre.

/** Where a panorama's centre column faces (compass degrees), and the part of the sphere it covers. */
export interface PanoramaPose {
  centre: number;
  geometry: PanoramaGeometry | null;
}

export interface PanoramaView {
  /** Shows the equirectangular image at `url` looking at compass `heading`; resolves once it is drawn. */
  show(url: string, pose: PanoramaPose, heading: number): Promise<void>;
  destroy(): void;
}

const DEG = Math.PI / 180;
const normal = (degrees: number) => ((degrees % 360) + 360) % 360;

export function openPanorama(container: HTMLElement, onTurn: (heading: number) => void): PanoramaView {
  let viewer: Viewer | null = null;
  let centre = 0;
  const facing = () => normal(centre + (viewer ? viewer.getPosition().yaw / DEG : 0));
  const turned = () => {
    const heading = facing();
    container.dataset.heading = heading.toFixed(1);
    onTurn(heading);
  };

  return {
    async show(url, pose, heading) {
      centre = pose.centre;
      const panoData = cropOf(pose.geometry);
      const position = { yaw: normal(heading - centre) * DEG, pitch: 0 };
      delete container.dataset.loaded;
      if (!viewer) {
        viewer = new Viewer({
          container,
          panorama: url,
          panoData,
          defaultYaw: position.yaw,
          defaultPitch: 0,
          // The viewer's own arrow keys are the sequence's; the navbar's buttons turn and zoom.
          keyboard: false,
          navbar: ['zoom', 'move'],
          loadingTxt: 'Loading the panorama…',
          mousewheelCtrlKey: false,
        });
        viewer.addEventListener('position-updated', turned);
        await new Promise<void>((resolve, reject) => {
          viewer!.addEventListener('ready', () => resolve(), { once: true });
          viewer!.addEventListener('panorama-error', () => reject(new Error('The panorama cannot be loaded')), {
            once: true,
          });
        });
        labelButtons(container);
      } else {
        await viewer.setPanorama(url, { position, panoData, transition: false, showLoader: true });
      }
      turned();
      container.dataset.loaded = url;
    },
    destroy() {
      viewer?.destroy();
      viewer = null;
      delete container.dataset.loaded;
    },
  };
}

// PSV's navbar buttons are focusable elements with a title: named as buttons for screen readers too.
function labelButtons(container: HTMLElement): void {
  for (const button of container.querySelectorAll<HTMLElement>('.psv-button[title]')) {
    button.setAttribute('role', 'button');
    button.setAttribute('aria-label', button.title);
  }
}

// A panorama that is not the whole sphere (GPano's cropped area) placed where it lies in it, in pixels
// of the image loaded (the hd derivative, scaled from the stored one's, which carries no XMP of its
// own). PSV's pose correction is left out: the centre heading is applied as the yaw offset above.
function cropOf(geometry: PanoramaGeometry | null): ((image: HTMLImageElement) => PanoData) | undefined {
  if (!geometry) return undefined;
  const g = geometry;
  const whole =
    g.cropped_left === 0 && g.cropped_top === 0 && g.cropped_width >= g.full_width && g.cropped_height >= g.full_height;
  if (whole) return undefined;
  return (image) => {
    const k = image.naturalWidth / g.cropped_width;
    return {
      isEquirectangular: true,
      fullWidth: Math.round(g.full_width * k),
      fullHeight: Math.round(g.full_height * k),
      croppedWidth: image.naturalWidth,
      croppedHeight: image.naturalHeight,
      croppedX: Math.round(g.cropped_left * k),
      croppedY: Math.round(g.cropped_top * k),
    };
  };
}
