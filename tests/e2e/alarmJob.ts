/**
 * Starting the job the alarm tests need (tests/e2e/alarms.spec.ts, alarmChannels.spec.ts): the "Lobby people
 * counter" application on x86 Edge Box B's cam-1, from /jobs. Its start sends the device its alarms (alarm-new,
 * §4 step 1), so the device matches the scene's people against them while it runs. `boxBCam1` is the set-up
 * before it (also tests/e2e/faces.spec.ts): the demo user's token and box B's cam-1 as an alarm source.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, apiLogin, auth, listDevices, navigate, resetLayout } from './stack';

const BOX_B = 'x86 Edge Box B';
const APP = 'Lobby people counter (demo-people-detector v1)';

/** Starts a job on box B's cam-1 from /jobs (its start sends the device its alarms: alarm-new, §4 step 1). */
export async function startAlarmJob(page: Page, job: string) {
  await navigate(page, '/jobs');
  await expect(page.getByTestId('jobs-screen')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('jobs-add').click();
  await expect(page.getByTestId('job-application')).toContainText('Lobby people counter', {
    timeout: 30_000,
  });
  await page.getByTestId('job-application').selectOption({ label: APP });
  await page.getByTestId('job-device').selectOption({ label: BOX_B });
  // The first link of a fresh page (signalling, grant, peer connection) can take a while on a loaded machine.
  await expect(page.getByTestId('job-camera')).toBeEnabled({ timeout: 45_000 });
  await expect(page.getByTestId('job-camera')).toHaveValue('cam-1');
  // The name last: the form's fields are set again once its lists arrive, which emptied a name typed first.
  await page.getByTestId('job-name').fill(job);
  await expect(page.getByTestId('job-name')).toHaveValue(job);
  await page.getByTestId('job-submit').click();
  await expect(page.getByTestId('jobs-form')).toBeHidden({ timeout: 15_000 });
  const row = page.getByTestId(`job-row-${job}`);
  await expect(row).toHaveAttribute('data-state', 'started', { timeout: 90_000 });
  return row;
}

/** A physical camera as GET /api/physical-cameras lists it. */
export interface AlarmCam {
  uniqueCameraId: string;
  camera_id: string;
  device_id: string;
  label: string;
}

/**
 * Signs the demo user in over REST (a reset layout) and waits for box B's cam-1: a device's physical cameras
 * exist on the server only once its agent has registered them (POST device/register-cameras when it starts),
 * which can come after the server answers. Answers the token, the camera and its alarm source (§3).
 */
export async function boxBCam1(request: APIRequestContext) {
  const token = await apiLogin(request, DEMO);
  await resetLayout(request, token);
  const boxB = (await listDevices(request, token)).res.find((d) => d.label === BOX_B)!;
  expect(boxB).toBeTruthy();
  let found: AlarmCam | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/physical-cameras', { headers: auth(token) });
        const cams = (await res.json()).data.data as AlarmCam[];
        found = cams.find((c) => c.device_id === boxB.device_id && c.camera_id === 'cam-1');
        return found?.camera_id;
      },
      { timeout: 60_000 },
    )
    .toBe('cam-1');
  const cam = found!;
  return { token, cam, source: { type: 'PHYSICAL' as const, text: cam.label, value: cam.uniqueCameraId } };
}
