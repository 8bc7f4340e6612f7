import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { static as serveStatic } from 'express';
import { ImageryModule } from '../imagery/imagery.module';
import { DemoKeyOffer } from './demo-key-offer.service';
import { WebPageController } from './web-page.controller';
import { WebPageService, webRoot } from './web-page.service';

@Module({
  imports: [ImageryModule],
  controllers: [WebPageController],
  providers: [WebPageService, DemoKeyOffer],
  exports: [WebPageService],
})
export class WebPageModule implements NestModule {
  // The bundle, styles, map worker and basemap; unknown files fall through to the JSON 404.
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(serveStatic(`${webRoot()}/assets`, { index: false, fallthrough: true, maxAge: 0, dotfiles: 'ignore' }))
      .forRoutes('assets');
  }
}
