import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import { can } from '../services/policy';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { RefPath } from '../services/repository/browse';
import { LIMITS } from '../lib/limits';
import { toInteger } from '../lib/to-integer';
import { BLOB_MAX_BYTES, BlobRenderer } from './blob-render';
import { RESERVED } from './browse-routes';
import { languageOf } from './highlight';
import { projectPath } from './paths';
import { pickReadme, type ReadmeRenderer } from './readme';
import { rawHeaders } from './raw';
import { folderOf } from './relative-links';
import { PAGE, pageContext, sendPage } from './request';
import { blamePage } from './pages/repository/blame';
import { blobPage, type BlobView } from './pages/repository/blob';
import { commitPage } from './pages/repository/commit';
import { commitsPage } from './pages/repository/commits';
import { compareFormPage, comparePage } from './pages/repository/compare';
import { branchesPage, tagsPage } from './pages/repository/refs';
import { treePage } from './pages/repository/tree';
import { encodeSegments, refUrl } from './pages/repository/urls';

type ProjectParams = { namespace: string; project: string };
type WildParams = ProjectParams & { '*': string };

/** GitLab 8.12 shows 40 commits a page. */
const COMMITS_PER_PAGE = 40;
const MARKDOWN = /\.(md|markdown|mdown|mkdn|mkd)$/i;
const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|svg)$/i;
const SWITCH_DESTINATIONS = new Set(['tree', 'blob', 'commits', 'blame']);

/**
 * The repository pages at GitLab 8.12's URLs: tree, blob, raw, blame, commits, commit, compare,
 * branches, tags and the ref switcher. The project is found as the API finds it, and its code is
 * read only by those the policy lets download it: to anyone else every page is the 404 of a
 * project that does not exist.
 */
export function repositoryRoutes(pages: FastifyInstance, { services, readmes }: { services: Services; readmes: ReadmeRenderer }): void {
  const renderer = new BlobRenderer();

  async function codeOf(request: FastifyRequest): Promise<Project> {
    const { namespace, project: name } = request.params as ProjectParams;
    if (RESERVED.has(namespace.toLowerCase())) throw notFound();
    const { project, standing } = await services.projects.findReadable(`${namespace}/${name}`, request.web.user);
    if (!can(standing, 'download_code')) throw notFound('Project');
    return project;
  }

  async function refPath(project: Project, id: string, options: { pathRequired?: boolean } = {}): Promise<RefPath> {
    const found = await services.repositoryBrowse.extractRef(project, id);
    if (!found || (options.pathRequired && found.path === '')) throw notFound('File');
    return found;
  }

  const refs = (project: Project) => services.repositoryBrowse.refNames(project);

  /** The CSRF token of the page's write buttons (new file, edit, delete, new branch) when the caller may push; else none are shown. */
  async function writer(request: FastifyRequest, project: Project): Promise<{ csrfToken: string } | undefined> {
    if (!request.web.user) return undefined;
    const standing = await services.projects.standing(project, request.web.user);
    return can(standing, 'push_code') ? { csrfToken: pageContext(request).csrfToken } : undefined;
  }

  const toDefault = (kind: 'tree' | 'commits') => async (request: FastifyRequest, reply: FastifyReply) => {
    const project = await codeOf(request);
    return reply.redirect(refUrl(project, kind, await services.repositoryReads.defaultRef(project)));
  };
  pages.get<{ Params: ProjectParams }>('/:namespace/:project/tree', { config: PAGE }, toDefault('tree'));
  pages.get<{ Params: ProjectParams }>('/:namespace/:project/commits', { config: PAGE }, toDefault('commits'));

  pages.get<{ Params: WildParams }>('/:namespace/:project/tree/*', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const { ref, path, commitId } = await refPath(project, request.params['*']);
    const [entries, names, editor] = await Promise.all([
      services.repositoryReads.tree(project, { ref: commitId, path }),
      refs(project),
      writer(request, project),
    ]);
    // The service lists nothing for a path that is no folder: a folder always holds something.
    if (entries.length === 0 && path !== '') throw notFound('Tree');
    const readmeEntry = pickReadme(entries);
    const readme = readmeEntry && { name: readmeEntry.name, body: await readmes.render(project, commitId, ref, readmeEntry) };
    return sendPage(
      request,
      reply,
      `${path || 'Files'} · ${project.name}`,
      treePage({ project, ref, path, entries, refs: names, readme, editor }),
    );
  });

  pages.get<{ Params: WildParams; Querystring: { plain?: string } }>(
    '/:namespace/:project/blob/*',
    { config: PAGE },
    async (request, reply) => {
      const project = await codeOf(request);
      const { ref, path, commitId } = await refPath(project, request.params['*'], { pathRequired: true });
      const [info, names, editor] = await Promise.all([
        services.repositoryBrowse.blobInfo(project, commitId, path),
        refs(project),
        writer(request, project),
      ]);
      if (!info) {
        const folder = await services.repositoryReads.tree(project, { ref: commitId, path });
        if (folder.length > 0) return reply.redirect(refUrl(project, 'tree', ref, path));
        throw notFound('File');
      }
      const { size } = info;
      const name = path.slice(path.lastIndexOf('/') + 1);
      const markdown = MARKDOWN.test(name);
      const plain = request.query.plain === '1';
      let content: BlobView['content'];
      if (size > BLOB_MAX_BYTES) content = { kind: 'too-large' };
      else if (IMAGE.test(name)) content = { kind: 'image' };
      else
        content = await renderer.render({
          blobId: info.id,
          view: markdown && !plain ? 'markdown' : 'source',
          relativeTo: { projectPath: projectPath(project), ref, folder: folderOf(path) },
          language: markdown ? 'markdown' : languageOf(name),
          read: async () => {
            const blob = await services.repositoryReads.rawBlob(project, info.id);
            if (blob.body instanceof Readable) throw notFound('File');
            return { content: blob.body, binary: blob.contentType === 'application/octet-stream' };
          },
        });
      return sendPage(
        request,
        reply,
        `${path} · ${project.name}`,
        blobPage({ project, ref, path, size, refs: names, content, markdown, plain, editor }),
      );
    },
  );

  pages.get<{ Params: WildParams }>('/:namespace/:project/raw/*', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const { path, commitId } = await refPath(project, request.params['*'], { pathRequired: true });
    const blob = await services.repositoryReads.blobAt(project, commitId, path);
    reply.headers(rawHeaders(path, blob));
    return reply.send(blob.body);
  });

  pages.get<{ Params: WildParams }>('/:namespace/:project/blame/*', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const { ref, path, commitId } = await refPath(project, request.params['*'], { pathRequired: true });
    const [ranges, names] = await Promise.all([services.repositoryBrowse.blame(project, commitId, path), refs(project)]);
    return sendPage(request, reply, `Blame ${path} · ${project.name}`, blamePage({ project, ref, path, refs: names, ranges }));
  });

  pages.get<{ Params: WildParams; Querystring: { page?: string } }>(
    '/:namespace/:project/commits/*',
    { config: PAGE },
    async (request, reply) => {
      const project = await codeOf(request);
      const { ref, path, commitId } = await refPath(project, request.params['*']);
      const page = Math.min(Math.max(1, toInteger(request.query.page) ?? 1), LIMITS.page);
      const [{ commits, total }, names] = await Promise.all([
        services.commitReads.page(project, {
          ref: commitId,
          path: path || undefined,
          offset: (page - 1) * COMMITS_PER_PAGE,
          limit: COMMITS_PER_PAGE,
        }),
        refs(project),
      ]);
      const pages = Math.max(1, Math.ceil(total / COMMITS_PER_PAGE));
      if (page > pages) throw notFound();
      return sendPage(request, reply, `Commits · ${project.name}`, commitsPage({ project, ref, path, refs: names, commits, page, pages }));
    },
  );

  pages.get<{ Params: ProjectParams & { sha: string } }>('/:namespace/:project/commit/:sha', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const detail = await services.commitReads.detail(project, request.params.sha);
    const diffs = await services.commitReads.diff(project, detail.commit.id);
    return sendPage(request, reply, `${detail.commit.title} · ${project.name}`, commitPage(project, detail, diffs));
  });

  pages.get<{ Params: ProjectParams; Querystring: { from?: string; to?: string } }>(
    '/:namespace/:project/compare',
    { config: PAGE },
    async (request, reply) => {
      const project = await codeOf(request);
      const from = request.query.from?.trim() ?? '';
      const to = request.query.to?.trim() ?? '';
      if (from !== '' && to !== '')
        return reply.redirect(`${projectPath(project)}/compare/${encodeSegments(from)}...${encodeSegments(to)}`);
      const defaultRef = await services.repositoryReads.defaultRef(project);
      return sendPage(request, reply, `Compare · ${project.name}`, compareFormPage(project, from || defaultRef, to));
    },
  );

  pages.get<{ Params: WildParams }>('/:namespace/:project/compare/*', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const spec = request.params['*'];
    const dots = spec.indexOf('...');
    if (dots <= 0 || dots + 3 >= spec.length) throw notFound();
    const from = spec.slice(0, dots);
    const to = spec.slice(dots + 3);
    const result = await services.repositoryReads.compare(project, from, to);
    return sendPage(request, reply, `Compare ${from}...${to} · ${project.name}`, comparePage(project, from, to, result));
  });

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/branches', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const [branches, defaultRef, editor] = await Promise.all([
      services.branches.list(project),
      services.repositoryReads.defaultRef(project),
      writer(request, project),
    ]);
    return sendPage(request, reply, `Branches · ${project.name}`, branchesPage(project, branches, defaultRef, editor));
  });

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/tags', { config: PAGE }, async (request, reply) => {
    const project = await codeOf(request);
    const [tags, editor] = await Promise.all([services.tags.list(project), writer(request, project)]);
    return sendPage(request, reply, `Tags · ${project.name}`, tagsPage(project, tags, editor));
  });

  // GitLab's `refs/switch`: the ref switcher's form lands here and is sent on to the chosen ref.
  pages.get<{ Params: ProjectParams; Querystring: { ref?: string; destination?: string; path?: string } }>(
    '/:namespace/:project/refs/switch',
    { config: PAGE },
    async (request, reply) => {
      const project = await codeOf(request);
      const ref = request.query.ref?.trim();
      if (!ref) throw notFound();
      const destination = SWITCH_DESTINATIONS.has(request.query.destination ?? '') ? request.query.destination : 'tree';
      return reply.redirect(refUrl(project, destination as 'tree', ref, request.query.path?.replace(/^\/+|\/+$/g, '') ?? ''));
    },
  );
}
