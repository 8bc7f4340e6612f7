import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiKeyService, AuthenticatedKey } from './api-key.service';

export type RequestWithApiKey = Request & { apiKey?: AuthenticatedKey };

@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly apiKeys: ApiKeyService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithApiKey>();
    const header = req.headers['x-api-key'];
    req.apiKey = await this.apiKeys.authenticate(Array.isArray(header) ? header[0] : header);
    return true;
  }
}
