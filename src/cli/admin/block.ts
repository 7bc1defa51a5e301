import type { Command } from '../command';
import { withInstance } from '../instance';
import { findUser } from './users';

/** `block` and `unblock`: through the users service, as PUT /users/:id/block and /unblock. */
function blockCommand(blocked: boolean): Command {
  const name = blocked ? 'block' : 'unblock';
  return {
    name,
    summary: blocked ? 'block a user: no sign-in, API or git access' : 'unblock a blocked user',
    help: `usage: forge admin ${name} USER

${blocked ? 'Blocks USER (a username or an id), as PUT /users/:id/block does: their password, private token\nand SSH keys stop working at once (other server processes within a second).' : 'Unblocks USER (a username or an id), as PUT /users/:id/unblock does.'}`,
    positionals: { min: 1, max: 1 },
    async run({ positionals }) {
      return withInstance(`forge admin ${name}`, async ({ services }) => {
        const user = await findUser(services, positionals[0]);
        await services.users.setBlocked(user.id, blocked);
        process.stdout.write(`${user.username} is ${blocked ? 'blocked' : 'active'}\n`);
        return 0;
      });
    },
  };
}

export const block = blockCommand(true);
export const unblock = blockCommand(false);
