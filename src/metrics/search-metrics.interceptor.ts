import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, tap } from 'rxjs';
import { MetricsService } from './metrics.service';

// Counts what each successful search returned, without the search service knowing about metrics.
@Injectable()
export class SearchMetricsInterceptor implements NestInterceptor {
  constructor(private readonly metrics: MetricsService) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      tap((response: { data?: unknown[]; pageTotal?: number }) => {
        this.metrics.observeSearch(response?.data?.length ?? 0, response?.pageTotal ?? 0);
      }),
    );
  }
}
