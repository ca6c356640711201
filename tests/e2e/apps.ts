/** Applications the end-to-end tests make over REST (issue 9 applications; §3 Application). */
import { expect, type APIRequestContext } from '@playwright/test';
import { auth } from './stack';

/**
 * An application of the demo detector for people and cars (the demo's own "Lobby people counter" detects people
 * only), tracked with ByteTrack. Its label in the job form is `${name} (demo-people-detector v1)`.
 */
export async function demoAppWithCars(request: APIRequestContext, token: string, name: string) {
  const models = (await (await request.get('/api/models?per_page=100', { headers: auth(token) })).json())
    .data as { id: string; name: string }[];
  const people = models.find((m) => m.name === 'demo-people-detector')!;
  const detail = await (await request.get(`/api/models/${people.id}`, { headers: auth(token) })).json();
  const created = await request.post('/api/applications/new', {
    headers: auth(token),
    data: {
      name,
      model_version_id: detail.version_list[0].id,
      classes: ['person', 'car'],
      tracker: 'bytetrack',
    },
  });
  expect(created.status()).toBe(200);
  return (await created.json()) as { id: string };
}
