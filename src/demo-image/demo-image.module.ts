import { Module } from '@nestjs/common';
import { ImageryModule } from '../imagery/imagery.module';
import { DemoImageController } from './demo-image.controller';
import { DemoImageService } from './demo-image.service';

@Module({
  imports: [ImageryModule],
  controllers: [DemoImageController],
  providers: [DemoImageService],
})
export class DemoImageModule {}
