import type { ServiceContext } from './context';
import { UsersService } from './users/users';

/** Every service, built once per app over one context. */
export function createServices(ctx: ServiceContext) {
  return {
    ctx,
    users: new UsersService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
