/** The application settings other services depend on. */
export interface CoreSettings {
  default_projects_limit: number;
  default_project_visibility: number;
  default_group_visibility: number;
  restricted_visibility_levels: number[];
  signup_enabled: boolean;
  shared_runners_enabled?: boolean;
}

export interface SettingsReader {
  get(): Promise<CoreSettings>;
}
