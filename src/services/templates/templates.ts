import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { notFound } from '../../errors';
import { FileTemplates, type FileTemplate } from './file-templates';
import { fillPlaceholders, loadLicenses, type License } from './licenses';

/**
 * GitHub's gitignore collection (github/gitignore as `init-gitignore` ships it):
 * language templates at the root, then editor and system ones under `Global/`.
 */
function loadGitignores(): FileTemplates {
  const root = path.join(path.dirname(createRequire(import.meta.url).resolve('init-gitignore/package.json')), 'gitignore');
  return new FileTemplates(root, '.gitignore', ['', 'Global']);
}

/**
 * Forge's own `.gitlab-ci.yml` templates, under the names GitLab 8.12 listed (its
 * gitlab-org/gitlab-ci-yml files may not be copied, and no package ships them):
 * general ones, then `Pages/`. Like GitLab's `GitlabCiYml#content`, each is served
 * under an explanation line.
 */
const CI_YML_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'gitlab-ci-yml');
const CI_YML_EXPLANATION = '# This file is a template, and might need editing before it works on your project.';

function loadGitlabCiYmls(): FileTemplates {
  return new FileTemplates(CI_YML_ROOT, '.gitlab-ci.yml', ['', 'Pages'], (content) => `${CI_YML_EXPLANATION}\n${content}`);
}

/** Memoizes a loader: the packaged data is read on first use, once per process. */
function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

const licenses = once(loadLicenses);
const gitignores = once(loadGitignores);
const gitlabCiYmls = once(loadGitlabCiYmls);

export interface LicenseFill {
  project?: string;
  fullname?: string;
  /** The signed-in caller's name: the copyright holder when `fullname` is blank. */
  callerName?: string;
}

/** Ruby's `presence`: blank strings count as absent. */
const presence = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);

/** License, gitignore and `.gitlab-ci.yml` templates: static data, open to anyone. */
export class TemplatesService {
  /** `popular` keeps only the featured licenses. */
  licenses(popular: boolean): License[] {
    return popular ? licenses().filter((license) => license.featured) : licenses();
  }

  /** A license with the current year, the project name and the copyright holder filled in. */
  license(key: string, { project, fullname, callerName }: LicenseFill): License {
    const license = licenses().find((candidate) => candidate.key === key);
    if (!license) throw notFound('License');
    const values = { year: new Date().getFullYear(), project: presence(project), fullname: presence(fullname) ?? callerName };
    return { ...license, content: fillPlaceholders(license.content, values) };
  }

  gitignores(): readonly FileTemplate[] {
    return gitignores().list();
  }

  gitignore(name: string): FileTemplate {
    const template = gitignores().find(name);
    if (!template) throw notFound('gitignore');
    return template;
  }

  gitlabCiYmls(): readonly FileTemplate[] {
    return gitlabCiYmls().list();
  }

  gitlabCiYml(name: string): FileTemplate {
    const template = gitlabCiYmls().find(name);
    if (!template) throw notFound('gitlab_ci_yml');
    return template;
  }
}
