import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { startApp } from '../helpers/test-app';

// Behind a load balancer, x-served-by tells which instance answered; off unless INSTANCE_NAME is set.
describe('x-served-by', () => {
  const apps: NestExpressApplication[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));
  const start = async (instanceName?: string) => {
    const app = await startApp({ instanceName });
    apps.push(app);
    return app.getHttpServer();
  };

  it('names the configured instance on answers, refusals and unknown routes', async () => {
    const server = await start('api-2');
    expect((await request(server).get('/health/live')).headers['x-served-by']).toBe('api-2');
    const refused = await request(server).post('/search').send({ query: 'Springfield' });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-served-by']).toBe('api-2');
    expect((await request(server).get('/no-such-route')).headers['x-served-by']).toBe('api-2');
  });

  it('is absent without INSTANCE_NAME', async () => {
    const server = await start();
    const res = await request(server).get('/health/live');
    expect(res.status).toBe(200);
    expect(res.headers).not.toHaveProperty('x-served-by');
  });
});
