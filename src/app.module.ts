import { DynamicModule, Module } from '@nestjs/common';
import { ApiKeyModule } from './api-key/api-key.module';
import { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { DemoImageModule } from './demo-image/demo-image.module';
import { HealthModule } from './health/health.module';
import { ImageryModule } from './imagery/imagery.module';
import { PhotosModule } from './photos/photos.module';
import { PlacesModule } from './places/places.module';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { MapStyleModule } from './map-style/map-style.module';
import { MetricsModule } from './metrics/metrics.module';
import { SearchModule } from './search/search.module';
import { StacModule } from './stac/stac.module';
import { StreetViewModule } from './streetview/streetview.module';
import { TilesModule } from './tiles/tiles.module';
import { WebPageModule } from './web-page/web-page.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        DatabaseModule.forRoot(config),
        LifecycleModule,
        MetricsModule,
        HealthModule,
        ApiKeyModule,
        SearchModule,
        ImageryModule,
        PlacesModule,
        DemoImageModule,
        PhotosModule,
        TilesModule,
        StacModule,
        StreetViewModule,
        WebPageModule,
        MapStyleModule,
      ],
    };
  }
}
