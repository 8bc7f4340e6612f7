import { Readable } from 'node:stream';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/Pick';
import { streamArray } from 'stream-json/streamers/StreamArray';
import type { GeoJsonItem } from './geojson-seq.reader';
import { ImportFormatException, ImportFormatExceptionCode } from './import-format.exception';

interface Token {
  name: string;
  value?: unknown;
}

// A GeoJSON FeatureCollection, streamed: only one Feature is in memory at a time. Positions are
// 0-based feature indexes, as in `features[i]`.
export async function* readGeoJsonCollection(input: Readable): AsyncGenerator<GeoJsonItem> {
  // The pick filter sees every top-level value (not the inside of `features`), which is all we need
  // to check that this really is a FeatureCollection without a second pass.
  let rootIsObject = false;
  let type: unknown;
  let featuresIsArray = false;
  const filter = (stack: ReadonlyArray<string | number | null>, token: Token) => {
    if (stack.length === 0) {
      rootIsObject = token.name === 'startObject';
      return false;
    }
    if (stack.length !== 1 || !rootIsObject) return false;
    if (stack[0] === 'type') type = token.value;
    if (stack[0] !== 'features') return false;
    featuresIsArray = token.name === 'startArray';
    return featuresIsArray;
  };
  // Packed values only (no partial-string tokens): about twice as fast, and features are small.
  const tokens = parser({ streamValues: false, autoDestroy: false } as object);
  const picked = pick({ filter });
  const features = streamArray();
  // Piped by hand rather than with pipeline(): on a syntax error pipeline() would destroy every stage
  // and discard the features already parsed. Instead the tokens parsed so far are passed on, the chain
  // is ended, those features are read, and the error is raised after them.
  let failure: Error | undefined;
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    input.unpipe(tokens);
    tokens.unpipe(picked);
    for (let token = tokens.read(); token !== null; token = tokens.read()) picked.write(token);
    picked.end();
  };
  input.on('error', fail);
  tokens.on('error', fail);
  input.pipe(tokens).pipe(picked).pipe(features);
  if (input.errored) fail(input.errored); // it broke before we started

  let last = -1;
  try {
    for await (const { key, value } of features as AsyncIterable<{ key: number; value: unknown }>) {
      last = key;
      yield { position: key, feature: value };
    }
  } finally {
    for (const stream of [input, tokens, picked, features]) stream.destroy();
  }
  if (failure) {
    // I/O and decompression errors carry a code; the JSON parser's do not.
    if ((failure as { code?: unknown }).code !== undefined) throw failure;
    // A syntax error makes the rest of the document unreadable: report where and stop.
    const where = last >= 0 ? `after feature ${last}` : 'before the first feature';
    throw new ImportFormatException(
      ImportFormatExceptionCode.INVALID_INPUT,
      `the FeatureCollection is not valid JSON (${where}): ${failure.message}`,
    );
  }
  if (!rootIsObject || type !== 'FeatureCollection' || !featuresIsArray) {
    throw new ImportFormatException(
      ImportFormatExceptionCode.INVALID_INPUT,
      'the input is not a GeoJSON FeatureCollection (an object with "type": "FeatureCollection" and a "features" array)',
    );
  }
}
