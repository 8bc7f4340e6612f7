import { Module } from '@nestjs/common';
import { MapStyleController } from './map-style.controller';

@Module({ controllers: [MapStyleController] })
export class MapStyleModule {}
