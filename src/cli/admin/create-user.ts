import { randomToken } from '../../lib/secrets';
import { UsageError, type Command } from '../command';
import { withInstance } from '../instance';
import { credentialLines } from './users';

export const createUser: Command = {
  name: 'create-user',
  summary: 'create a user (an administrator with --admin)',
  help: `usage: forge admin create-user --username NAME --email ADDRESS [--name TEXT] [--password TEXT] [--admin]

Creates a confirmed user, as POST /users does, and prints their username, password and private token.

  --username NAME     their username (and personal namespace)
  --email ADDRESS     their e-mail address
  --name TEXT         their full name (default: the username)
  --password TEXT     their password, at least 8 characters (default: generated and printed)
  --admin             make them an administrator`,
  options: {
    username: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string' },
    admin: { type: 'boolean' },
  },
  async run({ values }) {
    const username = values.username as string | undefined;
    const email = values.email as string | undefined;
    if (!username) throw new UsageError('--username is required');
    if (!email) throw new UsageError('--email is required');
    const password = (values.password as string | undefined) ?? randomToken(16);
    return withInstance('forge admin create-user', async ({ services }) => {
      const user = await services.users.create({
        username,
        email,
        name: (values.name as string | undefined) ?? username,
        password,
        admin: values.admin === true,
        confirm: false,
      });
      process.stdout.write(
        `created ${user.admin ? 'the administrator' : 'user'} ${user.username} (id ${user.id})\n${credentialLines(services, user, password)}`,
      );
      return 0;
    });
  },
};
