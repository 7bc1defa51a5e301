import type { Services } from '../../services/index';
import type { Presenter } from './entities/common';

export type { Api } from '../../http/api';

export interface RouteDeps {
  services: Services;
  presenter: Presenter;
}
