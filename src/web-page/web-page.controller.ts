import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequestException, RequestExceptionCode } from '../common/app-exception';
import { WebPageConfig, WebPageService } from './web-page.service';

// Everything the page loads comes from this service: no CDN, no external fonts, works offline.
// Images may come from anywhere a catalogue keeps them, so img-src alone is open.
export const PAGE_CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "worker-src 'self' blob:",
  "child-src 'self' blob:",
  "style-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

// The page, not the API: left out of the OpenAPI document.
@ApiExcludeController()
@Controller()
export class WebPageController {
  constructor(private readonly webPage: WebPageService) {}

  @Get()
  page(@Res({ passthrough: true }) res: Response): string {
    const html = this.webPage.page();
    if (html === null) throw new RequestException(RequestExceptionCode.NOT_FOUND, 'The web page is not built; run npm run build');
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': PAGE_CSP,
      'Referrer-Policy': 'no-referrer',
    });
    return html;
  }

  @Get('config.json')
  @Header('Cache-Control', 'no-store')
  config(): WebPageConfig {
    return this.webPage.config();
  }
}
