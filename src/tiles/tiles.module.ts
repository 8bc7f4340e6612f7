import { Module } from '@nestjs/common';
import { ApiKeyModule } from '../api-key/api-key.module';
import { KeyQuotaGuard } from '../rate-limit/key-quota.guard';
import { TilesAccessGuard } from './tiles-access.guard';
import { TilesController } from './tiles.controller';
import { TilesRepository } from './tiles.repository';
import { TilesService } from './tiles.service';

@Module({
  imports: [ApiKeyModule],
  controllers: [TilesController],
  providers: [TilesService, TilesRepository, TilesAccessGuard, KeyQuotaGuard],
})
export class TilesModule {}
