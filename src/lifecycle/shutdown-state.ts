import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

// Whether the process is draining; readiness reports not-ready from the first moment it is.
@Injectable()
export class ShutdownState {
  private startedAt?: number;

  begin(): void {
    this.startedAt ??= Date.now();
  }

  get shuttingDown(): boolean {
    return this.startedAt !== undefined;
  }

  // While draining, tell keep-alive clients to reconnect elsewhere after this response.
  middleware(): RequestHandler {
    return (_req: Request, res: Response, next: NextFunction) => {
      if (this.shuttingDown) res.setHeader('Connection', 'close');
      next();
    };
  }
}
