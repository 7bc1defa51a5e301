import type { UrlBase } from '../../lib/urls';
import type { Presenter } from './types';

/**
 * A door's view of the server's addresses. It reads the config when asked, never copies it: with
 * PORT=0 the external URL is settled after listening. `userPath` is where a user's page is under the
 * external URL: `/u/` in 8.12 (v3), `/` since (v4 and the web pages).
 */
export function presenterFor(config: UrlBase, userPath: string): Presenter {
  return {
    get externalUrl() {
      return config.externalUrl;
    },
    get sshHost() {
      return config.sshHost;
    },
    get sshPort() {
      return config.sshPort;
    },
    userWebUrl: (username) => `${config.externalUrl}${userPath}${username}`,
  };
}
