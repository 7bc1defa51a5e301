import { randomToken } from '../../lib/secrets';
import type { Command } from '../command';
import { withInstance } from '../instance';
import { credentialLines, findUser } from './users';

export const resetPassword: Command = {
  name: 'reset-password',
  summary: "give a user a new password and show their private token (root's lost credentials)",
  help: `usage: forge admin reset-password USER [--password TEXT]

Sets a new password for USER (a username or an id), as PUT /users/:id does, and prints it with
their private token. This is how root's credentials are recovered when the first start's were lost.

  --password TEXT     the new password, at least 8 characters (default: generated and printed)`,
  options: { password: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  async run({ values, positionals }) {
    const password = (values.password as string | undefined) ?? randomToken(16);
    return withInstance('forge admin reset-password', async ({ services }) => {
      const user = await services.users.update((await findUser(services, positionals[0])).id, { password });
      process.stdout.write(
        `new password for ${user.username}${user.state === 'active' ? '' : ` (who is ${user.state}: forge admin unblock ${user.username})`}\n${credentialLines(services, user, password)}`,
      );
      return 0;
    });
  },
};
