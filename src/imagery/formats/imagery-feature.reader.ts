import { Readable } from 'node:stream';
import { readGeoJsonCollection } from '../../import-formats/geojson-collection.reader';
import { readGeoJsonSeq } from '../../import-formats/geojson-seq.reader';
import type { ImportFormat } from '../../import-formats/import-input';
import { readCsv } from './csv.reader';
import { FeatureItem } from '../imagery-feature';

// The imagery reader for each import format. Streams records one at a time: memory stays flat whatever
// the input size.
export function readFeatures(input: Readable, format: ImportFormat): AsyncGenerator<FeatureItem> {
  switch (format) {
    case 'geojson':
      return readGeoJsonCollection(input);
    case 'csv':
      return readCsv(input);
    default:
      return readGeoJsonSeq(input);
  }
}
