import { isURL } from 'class-validator';

// What a setting's value may be. `rule` is the one wording of it: a bad value stops the process with
// `<NAME> must be <rule>`, and docs/operations.md lists it (generated, see test/docs/config-reference.ts).
export interface ValueType<T> {
  rule: string;
  /** Checks the raw environment string (never empty: empty counts as unset). */
  accepts(raw: string): boolean;
  /** For a value it does not accept, what in it is wrong (which item of a list, and why), after the rule. */
  explain?(raw: string): string | undefined;
  parse(raw: string): T;
}

export interface Setting<T> {
  env: string;
  type: ValueType<T>;
  /** The value when the variable is unset; without one the setting stays undefined. */
  default?: T;
  /** How the docs show the default when the value alone does not say it. */
  shownDefault?: string;
  /** What it does, for docs/operations.md. */
  meaning: string;
}

export function integer(min: number, max: number): ValueType<number> {
  // Surrounding spaces are forgiven (a value pasted with a trailing space); nothing else is.
  const text = (raw: string) => raw.trim();
  return {
    rule: `an integer between ${min} and ${max}`,
    accepts: (raw) => /^-?\d+$/.test(text(raw)) && Number(text(raw)) >= min && Number(text(raw)) <= max,
    parse: (raw) => Number(text(raw)),
  };
}

export function oneOf<T extends string>(values: readonly T[]): ValueType<T> {
  return {
    rule: `one of ${values.join(', ')}`,
    accepts: (raw) => (values as readonly string[]).includes(raw),
    parse: (raw) => raw as T,
  };
}

export const trueOrFalse: ValueType<boolean> = {
  rule: 'true or false',
  accepts: (raw) => raw === 'true' || raw === 'false',
  parse: (raw) => raw === 'true',
};

export function matching(pattern: RegExp, rule: string): ValueType<string> {
  return { rule, accepts: (raw) => pattern.test(raw), parse: (raw) => raw };
}

/** Any text (a path, a host name): the program that uses it reports what is wrong with it. */
export function text(rule: string): ValueType<string> {
  return { rule, accepts: () => true, parse: (raw) => raw };
}

/** An absolute http(s) URL, kept without trailing slashes (paths are appended to it). */
export const httpUrl: ValueType<string> = {
  rule: 'an absolute http(s) URL',
  accepts: (raw) => isURL(raw, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }),
  parse: (raw) => raw.replace(/\/+$/, ''),
};
