import { Module } from '@nestjs/common';
import { PlaceTermListsRepository } from './place-term-lists.repository';
import { RankedWordListsRepository } from './ranked-word-lists.repository';

// The search index's upkeep: the lists searches read (ranked word lists, place term lists), refreshed
// by whoever changed what they are built from (imports, re-links). Its own module so that imagery and
// search can both depend on it without depending on each other.
@Module({
  providers: [RankedWordListsRepository, PlaceTermListsRepository],
  exports: [RankedWordListsRepository, PlaceTermListsRepository],
})
export class SearchIndexModule {}
