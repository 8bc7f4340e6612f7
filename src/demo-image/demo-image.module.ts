import { Module } from '@nestjs/common';
import { ImageryModule } from '../imagery/imagery.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { DemoImageController } from './demo-image.controller';
import { DemoImageService } from './demo-image.service';

@Module({
  imports: [ImageryModule, RateLimitModule],
  controllers: [DemoImageController],
  providers: [DemoImageService],
})
export class DemoImageModule {}
