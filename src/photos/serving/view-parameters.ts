import { RequestException, RequestExceptionCode } from '../../common/app-exception';

// The query of GET /images/{id}/view.jpg: what each parameter accepts, its default, and the normal form
// a view is cached and tagged by (a view asked for as heading=90 and heading=90.00 is one view).

export const VIEW_LIMITS = {
  width: { min: 16, max: 2048, default: 640 },
  height: { min: 16, max: 2048, default: 480 },
  /** Horizontal field of view, degrees. */
  fov: { min: 10, max: 120, default: 90 },
  pitch: { min: -90, max: 90, default: 0 },
  heading: { min: 0, max: 360 },
} as const;

/** Angles are kept to this many decimals (a tenth of a degree: a pixel of a 3600 px wide view at fov 360). */
const ANGLE_DECIMALS = 1;

export type ViewParameterName = keyof typeof VIEW_LIMITS;
export const VIEW_PARAMETERS = Object.keys(VIEW_LIMITS) as ViewParameterName[];

/** The view asked for; heading is absent when the client leaves it to the photo (its own heading). */
export interface ViewQuery {
  heading?: number;
  pitch: number;
  fov: number;
  width: number;
  height: number;
}

const DECIMAL = /^[+-]?(\d{1,10}(\.\d{0,10})?|\.\d{1,10})$/;
const INTEGER = /^\+?\d{1,10}$/;

function invalid(field: string, message: string): never {
  throw new RequestException(RequestExceptionCode.INVALID_REQUEST, message, [{ field, message }]);
}

function valueOf(query: Record<string, unknown>, name: ViewParameterName): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') invalid(name, `${name} must be given once, as a number`);
  return raw;
}

function angle(query: Record<string, unknown>, name: 'heading' | 'pitch' | 'fov'): number | undefined {
  const raw = valueOf(query, name);
  if (raw === undefined) return undefined;
  const { min, max } = VIEW_LIMITS[name];
  const value = DECIMAL.test(raw.trim()) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) invalid(name, `${name} must be a number from ${min} to ${max} (degrees)`);
  const rounded = Math.round(value * 10 ** ANGLE_DECIMALS) / 10 ** ANGLE_DECIMALS;
  return rounded === 0 ? 0 : rounded;
}

function pixels(query: Record<string, unknown>, name: 'width' | 'height'): number {
  const raw = valueOf(query, name);
  const { min, max } = VIEW_LIMITS[name];
  if (raw === undefined) return VIEW_LIMITS[name].default;
  const value = INTEGER.test(raw.trim()) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) invalid(name, `${name} must be a whole number of pixels from ${min} to ${max}`);
  return value;
}

/** Reads the query string; a 400 naming the parameter for anything it does not take. */
export function parseViewQuery(query: Record<string, unknown>): ViewQuery {
  for (const name of Object.keys(query)) {
    if (!(VIEW_PARAMETERS as string[]).includes(name)) {
      invalid(
        name,
        `unknown parameter ${JSON.stringify(name.slice(0, 40))}; a view takes ${VIEW_PARAMETERS.join(', ')}`,
      );
    }
  }
  const heading = angle(query, 'heading');
  return {
    // 360 is north again: one view.
    ...(heading !== undefined ? { heading: heading % 360 } : {}),
    pitch: angle(query, 'pitch') ?? VIEW_LIMITS.pitch.default,
    fov: angle(query, 'fov') ?? VIEW_LIMITS.fov.default,
    width: pixels(query, 'width'),
    height: pixels(query, 'height'),
  };
}

/** A heading as a view's parameter: in [0, 360), to the tenth of a degree. */
export function normalHeading(degrees: number): number {
  const h = Math.round((((degrees % 360) + 360) % 360) * 10 ** ANGLE_DECIMALS) / 10 ** ANGLE_DECIMALS;
  return h >= 360 ? 0 : h;
}
