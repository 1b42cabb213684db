import request from 'supertest';
import type { ApiHarness } from './api-harness.js';

/** A browser's view of the dashboard routes: a cookie jar and the CSRF token the session route hands out. */
export class DashboardClient {
  readonly agent: ReturnType<typeof request.agent>;
  csrf = '';
  /** `tw_session=…` as the sign-up set it, to replay from elsewhere. */
  sessionCookie = '';

  constructor(api: ApiHarness) {
    this.agent = request.agent(api.app.getHttpServer());
  }

  async open() {
    const res = await this.agent.get('/dashboard/api/session');
    this.csrf = res.body.csrfToken;
    return res;
  }

  post(path: string, body: object = {}) {
    return this.agent.post(`/dashboard/api/${path}`).set('X-CSRF-Token', this.csrf).send(body);
  }

  delete(path: string) {
    return this.agent.delete(`/dashboard/api/${path}`).set('X-CSRF-Token', this.csrf);
  }

  get(path: string) {
    return this.agent.get(`/dashboard/api/${path}`);
  }

  /** A new browser signed up as `email`. */
  static async signedUp(api: ApiHarness, email: string, password = 'correct horse battery'): Promise<DashboardClient> {
    const client = new DashboardClient(api);
    await client.open();
    const res = await client.post('sign-up', { email, password });
    if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${res.text}`);
    client.sessionCookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('tw_session='))!
      .split(';')[0]!;
    return client;
  }
}
