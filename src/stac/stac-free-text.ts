import { Injectable } from '@nestjs/common';
import { SearchException } from '../search/search.exception';
import { SearchRequestDto } from '../search/dto/search-request.dto';
import { SearchService } from '../search/search.service';
import { invalidParameter } from './stac.exception';

// How many of POST /search's best matches a free-text `q` keeps: its largest page.
export const FREE_TEXT_MATCHES = 100;

// `q` is read as POST /search reads its query (an address, a place, coordinates, a plus code, with
// its spelling corrections and place matching): the item search keeps the records among its best
// FREE_TEXT_MATCHES, then pages them in its own order.
@Injectable()
export class StacFreeText {
  constructor(private readonly search: SearchService) {}

  async matches(q: string): Promise<string[]> {
    const request = Object.assign(new SearchRequestDto(), { query: q, limit: FREE_TEXT_MATCHES, page: 1 });
    try {
      return (await this.search.search(request)).data.map((record) => record.id);
    } catch (error) {
      if (error instanceof SearchException) throw invalidParameter('q', error.message);
      throw error;
    }
  }
}
