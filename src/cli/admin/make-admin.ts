import type { Command } from '../command';
import { withInstance } from '../instance';
import { findUser } from './users';

export const makeAdmin: Command = {
  name: 'make-admin',
  summary: 'make a user an administrator (--revoke: no longer)',
  help: `usage: forge admin make-admin USER [--revoke]

Makes USER (a username or an id) an administrator, as PUT /users/:id with admin=true does.

  --revoke            take the administrator's rights away instead`,
  options: { revoke: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  async run({ values, positionals }) {
    const admin = values.revoke !== true;
    return withInstance('forge admin make-admin', async ({ services }) => {
      const user = await services.users.update((await findUser(services, positionals[0])).id, { admin });
      process.stdout.write(`${user.username} is ${admin ? 'now' : 'no longer'} an administrator\n`);
      return 0;
    });
  },
};
