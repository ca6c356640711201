import { test, expect } from './fixtures';
import { expectAccessible } from './axe';
import { DEMO, apiLogin, auth, navigate, signIn } from './stack';

/**
 * Image repositories on the real stack (§2 /repositories, /repositories/{alias}; §4 image push; §9 _prod):
 * `npm start` runs Debian's docker-registry seeded with real small OCI images (src/server/registry/local.ts);
 * the list shows the project's repositories, a repository's tags show size, digest, created and the pull
 * command as the registry itself answers them (its manifest digest and config created time, read here
 * straight from the registry), the copy button puts the pull command on the clipboard from the keyboard, and
 * a tag pushed under a new tag (§4 started → successful) appears with the same digest. Axe passes on both
 * screens and in the push dialog.
 */
test('a repository’s tags read from the real registry, copied and pushed', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const token = await apiLogin(request, DEMO);
  const listed = await (await request.get('/api/repositories', { headers: auth(token) })).json();
  expect(listed.configured).toBe(true);
  expect(listed.project).toBe('edge_prod');
  const registry = listed.registry as string;

  // What the registry itself says of people-detector:1.1.0 (a single image) and 1.0.0 (an OCI index).
  const accept = 'application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json';
  const manifest = await request.get(`http://${registry}/v2/edge_prod/people-detector/manifests/1.1.0`, {
    headers: { accept },
  });
  expect(manifest.status()).toBe(200);
  const digest = manifest.headers()['docker-content-digest']!;
  const body = await manifest.json();
  const config = await (
    await request.get(`http://${registry}/v2/edge_prod/people-detector/blobs/${body.config.digest}`)
  ).json();
  const size =
    (await manifest.body()).length +
    body.config.size +
    body.layers.reduce((n: number, l: { size: number }) => n + l.size, 0);

  await signIn(page, DEMO);
  await navigate(page, '/repositories');
  const row = page.getByTestId('repository-row-people-detector');
  await expect(row).toContainText('edge_prod/people-detector');
  await expect(row).toContainText('2');
  await expect(page.getByTestId('repository-row-plate-reader')).toBeVisible();
  await expectAccessible(page, '[data-testid="repositories-screen"]');

  await row.getByRole('link').click();
  await expect(page).toHaveURL(/\/repositories\/people-detector$/);
  const tag = page.getByTestId('tag-row-1.1.0');
  await expect(tag.getByTestId('tag-digest')).toHaveAttribute('data-digest', digest);
  await expect(tag.getByTestId('tag-size')).toHaveAttribute('data-bytes', String(size));
  await expect(tag.getByTestId('tag-created')).toHaveAttribute(
    'data-created',
    new Date(config.created).toISOString(),
  );
  const pull = `docker pull ${registry}/edge_prod/people-detector:1.1.0`;
  await expect(tag.getByTestId('tag-pull')).toHaveText(pull);
  // The multi-platform tag lists both platforms.
  await expect(page.getByTestId('tag-row-1.0.0')).toContainText('linux/amd64, linux/arm64/v8');
  await expectAccessible(page, '[data-testid="repository-tags-screen"]');

  // Copy from the keyboard.
  await page.getByTestId('copy-pull-1.1.0').focus();
  await page.keyboard.press('Enter');
  await expect(tag).toContainText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pull);

  // §4 image push: 1.1.0 under a new tag.
  const newTag = `e2e-${Date.now()}`;
  await page.getByTestId('push-1.1.0').click();
  await expect(page.getByTestId('push-state')).toHaveAttribute('data-state', 'idle');
  await page.getByTestId('push-target-tag').fill('-bad tag');
  await page.getByTestId('push-submit').click();
  await expect(page.getByText('Enter a valid tag.')).toBeVisible();
  await page.getByTestId('push-target-tag').fill(newTag);
  await page.getByTestId('push-submit').click();
  await expect(page.getByTestId('push-state')).toHaveAttribute('data-state', 'successful');
  await expectAccessible(page, '[role="dialog"]');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByTestId(`tag-row-${newTag}`).getByTestId('tag-digest')).toHaveAttribute(
    'data-digest',
    digest,
  );
});
