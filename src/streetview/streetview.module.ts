import { Module } from '@nestjs/common';
import { ApiKeyModule } from '../api-key/api-key.module';
import { SearchModule } from '../search/search.module';
import { StreetViewKeyGuard } from './streetview-key.guard';
import { StreetViewController } from './streetview.controller';
import { StreetViewService } from './streetview.service';

@Module({
  imports: [ApiKeyModule, SearchModule],
  controllers: [StreetViewController],
  providers: [StreetViewService, StreetViewKeyGuard],
})
export class StreetViewModule {}
