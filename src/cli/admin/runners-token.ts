import type { Command } from '../command';
import { withInstance } from '../instance';

export const runnersToken: Command = {
  name: 'runners-token',
  summary: "print the shared runners' registration token",
  help: `usage: forge admin runners-token

Prints the shared runners' registration token (GitLab's runners_registration_token), for
\`npx forge runner --registration-token\` or \`gitlab-ci-multi-runner register\`.`,
  async run() {
    return withInstance('forge admin runners-token', async ({ services }) => {
      process.stdout.write(`${(await services.settings.get()).runners_registration_token}\n`);
      return 0;
    });
  },
};
