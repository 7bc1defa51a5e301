import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, which `.ci/run` installs; the browser tests skip, saying why, without it. */
const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing: string | false = fs.existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** Fills and sends the sign-in form the page shows (`/users/sign_in`, or any page that asked for it), then waits for `landing`. */
export async function signInThroughForm(
  page: Page,
  account: { user: { username: string }; password: string },
  landing: string | RegExp,
): Promise<void> {
  await page.getByLabel('Username or email').fill(account.user.username);
  await page.getByLabel('Password').fill(account.password);
  await Promise.all([page.waitForURL(landing), page.getByRole('button', { name: 'Sign in' }).click()]);
}
