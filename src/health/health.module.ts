import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController],
  providers: [HealthService, HealthRepository],
})
export class HealthModule {}
