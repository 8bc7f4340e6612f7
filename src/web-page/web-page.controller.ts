import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { CountryOption, countryOptions, CountryRegions, countryRegions } from './region-list';
import { WebPageConfig, WebPageService } from './web-page.service';

// The region lists change only with a new release of the service: a day in any cache is fine.
const REGIONS_CACHE = 'public, max-age=86400';

// The page, not the API: left out of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class WebPageController {
  constructor(private readonly webPage: WebPageService) {}

  @Get()
  page(@Res({ passthrough: true }) res: Response): string {
    const html = this.webPage.page();
    if (html === null)
      throw new RequestException(RequestExceptionCode.NOT_FOUND, 'The web page is not built; run npm run build');
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': this.webPage.contentSecurityPolicy(),
      'Referrer-Policy': 'no-referrer',
    });
    return html;
  }

  @Get('config.json')
  @Header('Cache-Control', 'no-store')
  config(): Promise<WebPageConfig> {
    return this.webPage.config();
  }

  // The region control's lists: no key (they are the public ISO code lists the API accepts).
  @Get('regions.json')
  @Header('Cache-Control', REGIONS_CACHE)
  regions(): { countries: CountryOption[] } {
    return { countries: countryOptions() };
  }

  @Get('regions/:country.json')
  @Header('Cache-Control', REGIONS_CACHE)
  countryRegions(@Param('country') country: string): CountryRegions {
    const found = countryRegions(country);
    if (!found) {
      throw new RequestException(RequestExceptionCode.NOT_FOUND, 'No such country', [
        { field: 'country', message: 'country must be an ISO 3166-1 alpha-2 code, e.g. LI' },
      ]);
    }
    return found;
  }
}
