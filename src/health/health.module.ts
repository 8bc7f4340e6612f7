import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';
import { ProbeRateGuard } from './probe-rate.guard';

@Module({
  imports: [TerminusModule.forRoot(), RateLimitModule],
  controllers: [HealthController],
  providers: [HealthService, HealthRepository, ProbeRateGuard],
})
export class HealthModule {}
