import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { ProjectStanding } from '../services/policy';
import type { User } from '../services/users/users';
import type { CommitAction } from '../services/repository/commit-actions';
import { html } from './html';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { signInFirst } from './issue-routes';
import { uploadedFileName } from '../http/params';
import { editorPage, uploadForm, type EditorForm, type EditorValues } from './pages/create/editor';
import { encodeSegments, refUrl } from './pages/repository/urls';

export interface EditorRouteDeps {
  services: Services;
}

type WildParams = ProjectParams & { '*': string };

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const RefName = Type.Optional(Type.String({ maxLength: 255 }));
/** As large as the API lets a file be: the body limit bounds it first. */
const Content = Type.Optional(Type.String());
const CommitFields = {
  authenticity_token: Text,
  commit_message: Type.Optional(Type.String({ maxLength: 100_000 })),
  target_branch: RefName,
  create_merge_request: Text,
};
const CreateBody = Type.Object({
  ...CommitFields,
  file_name: Type.Optional(Type.String({ maxLength: 4096 })),
  content: Content,
  // The upload's form: the file's bytes (a multipart part), and its own names for the commit's fields.
  file: Type.Optional(Type.Unknown()),
  upload_commit_message: Type.Optional(Type.String({ maxLength: 100_000 })),
  upload_target_branch: RefName,
});
const UpdateBody = Type.Object({ ...CommitFields, content: Content, last_commit_sha: Type.Optional(Type.String({ maxLength: 64 })) });
const DeleteBody = Type.Object({ ...CommitFields, _method: Text });

/** Content goes to git only, as the API's `content`: a NUL byte is the file's own. */
const WRITE = { ...PAGE, nulBytesIn: ['content', 'file'] };

/**
 * Browsers send a textarea's lines ending in CRLF, whatever the file had: typed text is kept with
 * LF endings, as GitLab's editor (Ace) sent it. An upload's bytes are never touched.
 */
const typedText = (value: string | undefined) => (value ?? '').replace(/\r\n/g, '\n');

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const blank = (value: string | undefined) => (value ?? '').trim() === '';

/** The files service's refusals of a commit beside the field they are about; the rest above the form. */
function commitErrors(error: unknown): FieldErrors | undefined {
  const errors = fieldErrors(error);
  const message = errors?.base?.[0];
  if (!errors || message === undefined) return errors;
  if (/push into this branch|already exists\. Switch|Branch name is invalid|Cannot find start_branch|on a branch/.test(message))
    return { target_branch: [message] };
  if (/file with this name|file name|Invalid path|directory traversal/.test(message)) return { file_name: [message] };
  return errors;
}

/**
 * GitLab 8.12's web editor: a new file (`…/new/:ref/*dir`, written by `…/create/:ref/*dir`, which
 * also takes an upload), an edit (`…/edit/:ref/*path`, written by `…/update/:ref/*path`, refused
 * when the file changed since the page was drawn) and a delete from the blob page (`POST
 * …/blob/:ref/*path`). Each is one commit through `FilesService.commit`, the API's files and
 * commits call: its permissions, protected branches, push processing, events and hooks. A target
 * branch other than the page's starts there; "Start a new merge request" then opens the form.
 */
export function editorRoutes(pages: FastifyInstance, { services }: EditorRouteDeps): void {
  /** The project (pushing code, else the page's 404), and the ref and path of the URL. */
  async function placeOf(request: FastifyRequest<{ Params: WildParams }>, options: { file?: boolean } = {}) {
    const { project, standing } = await projectFor(services, request, 'push_code');
    const wanted = request.params['*'].replace(/^\/+|\/+$/g, '');
    const found = await services.repositoryBrowse.extractRef(project, wanted);
    if (found) {
      if (options.file && found.path === '') throw new WebError(404);
      return { project, standing, ref: found.ref, path: found.path };
    }
    // An empty repository has no ref yet: its first file makes the branch the URL names.
    const names = await services.repositoryBrowse.refNames(project);
    if (options.file || names.branches.length > 0 || wanted === '') throw new WebError(404);
    const [ref, ...rest] = wanted.split('/');
    return { project, standing, ref, path: rest.join('/') };
  }

  const send = (request: FastifyRequest, reply: FastifyReply, form: EditorForm, title: string) =>
    sendPage(
      request,
      reply,
      `${title} · ${form.project.name}`,
      html`${editorPage(pageContext(request), form)}${form.kind === 'new' && uploadForm(pageContext(request), form)}`,
      form.errors ? 400 : 200,
    );

  const newForm = (project: Project, ref: string, dir: string, values: EditorValues, errors?: FieldErrors): EditorForm => ({
    kind: 'new',
    project,
    ref,
    path: dir,
    action: `${projectPath(project)}/create/${encodeSegments(ref)}${dir === '' ? '' : `/${encodeSegments(dir)}`}`,
    values,
    errors,
  });

  const editForm = (project: Project, ref: string, path: string, values: EditorValues, errors?: FieldErrors): EditorForm => ({
    kind: 'edit',
    project,
    ref,
    path,
    action: `${projectPath(project)}/update/${encodeSegments(ref)}/${encodeSegments(path)}`,
    values,
    errors,
  });

  /** One commit of one action; where the page goes next: the new merge request's form, or the file. */
  async function commit(
    project: Project,
    standing: ProjectStanding,
    user: User,
    ref: string,
    fields: { commitMessage: string; targetBranch: string; createMergeRequest: boolean },
    action: CommitAction,
  ): Promise<string> {
    const target = fields.targetBranch;
    await services.files.commit(project, standing, user, {
      branch: target,
      startBranch: target === ref ? undefined : ref,
      commitMessage: fields.commitMessage,
      actions: [action],
    });
    if (fields.createMergeRequest && target !== ref) {
      const query = new URLSearchParams({ 'merge_request[source_branch]': target, 'merge_request[target_branch]': ref });
      return `${projectPath(project)}/merge_requests/new?${query}`;
    }
    if (action.action === 'delete') {
      const dir = action.filePath.includes('/') ? action.filePath.slice(0, action.filePath.lastIndexOf('/')) : '';
      return refUrl(project, 'tree', target, dir);
    }
    return refUrl(project, 'blob', target, action.filePath);
  }

  /** The form's blank required fields, as the API refuses them. */
  const missing = (fields: Record<string, string | undefined>): FieldErrors | undefined => {
    const errors: FieldErrors = {};
    for (const [name, value] of Object.entries(fields)) if (blank(value)) errors[name] = ["can't be blank"];
    return Object.keys(errors).length > 0 ? errors : undefined;
  };

  /**
   * What the three writes share: the form's blank required fields (`commit_message`, `target_branch`
   * and any other), else one commit and a redirect to the next page; either refusal goes to `refuse`,
   * with `blank` when nothing reached the service.
   */
  async function write(
    reply: FastifyReply,
    user: User,
    { project, standing, ref }: { project: Project; standing: ProjectStanding; ref: string },
    given: {
      required: Record<string, string | undefined> & { commit_message: string | undefined; target_branch: string | undefined };
      createMergeRequest: boolean;
      action: () => CommitAction;
      refuse: (errors: FieldErrors, blank: boolean) => unknown;
      errorsOf?: (error: unknown) => FieldErrors | undefined;
    },
  ) {
    const { required, refuse, errorsOf = commitErrors } = given;
    const blanks = missing(required);
    if (blanks) return refuse(blanks, true);
    try {
      const fields = {
        commitMessage: required.commit_message!,
        targetBranch: required.target_branch!.trim(),
        createMergeRequest: given.createMergeRequest,
      };
      return reply.redirect(await commit(project, standing, user, ref, fields, given.action()), 303);
    } catch (error) {
      const errors = errorsOf(error);
      if (!errors) throw error;
      return refuse(errors, false);
    }
  }

  pages.get<{ Params: WildParams }>('/:namespace/:project/new/*', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const { project, ref, path } = await placeOf(request);
    return send(request, reply, newForm(project, ref, path, { targetBranch: ref, commitMessage: 'Add new file' }), 'New file');
  });

  pages.post<{ Params: WildParams; Body: Static<typeof CreateBody> }>(
    '/:namespace/:project/create/*',
    { config: WRITE, schema: { body: CreateBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const place = await placeOf(request);
      const { project, ref, path: dir } = place;
      const { body } = request;
      const upload = Buffer.isBuffer(body.file) ? body.file : undefined;
      const commitMessage = upload ? body.upload_commit_message : body.commit_message;
      const targetBranch = upload ? body.upload_target_branch : body.target_branch;
      // An upload is named by its file unless the name field says otherwise (a client's path is cut to its base name).
      const givenName =
        upload && blank(body.file_name) ? baseName((uploadedFileName(body.file) ?? '').replace(/\\/g, '/')) : body.file_name;
      const values: EditorValues = {
        fileName: givenName,
        content: upload ? undefined : body.content,
        commitMessage,
        targetBranch,
        createMergeRequest: body.create_merge_request === '1',
      };
      return write(reply, user, place, {
        required: { file_name: givenName, commit_message: commitMessage, target_branch: targetBranch },
        createMergeRequest: values.createMergeRequest ?? false,
        action: () => {
          const fileName = givenName!.trim().replace(/^\/+/, '');
          return {
            action: 'create',
            filePath: dir === '' ? fileName : `${dir}/${fileName}`,
            // An upload's bytes go as they came; typed text as text.
            content: upload ? upload.toString('base64') : typedText(body.content),
            encoding: upload ? 'base64' : 'text',
          };
        },
        refuse: (errors) => send(request, reply, newForm(project, ref, dir, values, errors), 'New file'),
      });
    },
  );

  pages.get<{ Params: WildParams }>('/:namespace/:project/edit/*', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const { project, ref, path } = await placeOf(request, { file: true });
    const file = await services.files.get(project, path, ref);
    const values: EditorValues = {
      content: file.content.toString('utf8'),
      commitMessage: `Update ${baseName(path)}`,
      targetBranch: ref,
      lastCommitSha: file.lastCommitId,
    };
    return send(request, reply, editForm(project, ref, path, values), `Edit ${path}`);
  });

  pages.post<{ Params: WildParams; Body: Static<typeof UpdateBody> }>(
    '/:namespace/:project/update/*',
    { config: WRITE, schema: { body: UpdateBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const place = await placeOf(request, { file: true });
      const { project, ref, path } = place;
      const { body } = request;
      const values: EditorValues = {
        content: body.content,
        commitMessage: body.commit_message,
        targetBranch: body.target_branch,
        lastCommitSha: body.last_commit_sha,
        createMergeRequest: body.create_merge_request === '1',
      };
      return write(reply, user, place, {
        required: { commit_message: body.commit_message, target_branch: body.target_branch },
        createMergeRequest: values.createMergeRequest ?? false,
        action: () => ({
          action: 'update',
          filePath: path,
          content: typedText(body.content),
          lastCommitId: body.last_commit_sha || undefined,
        }),
        refuse: (errors) => send(request, reply, editForm(project, ref, path, values, errors), `Edit ${path}`),
      });
    },
  );

  // The blob page's delete form (Rails' `DELETE …/blob/*`, sent as a POST with `_method`).
  pages.post<{ Params: WildParams; Body: Static<typeof DeleteBody> }>(
    '/:namespace/:project/blob/*',
    { config: PAGE, schema: { body: DeleteBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const place = await placeOf(request, { file: true });
      const { body } = request;
      return write(reply, user, place, {
        required: { commit_message: body.commit_message, target_branch: body.target_branch },
        createMergeRequest: body.create_merge_request === '1',
        action: () => ({ action: 'delete', filePath: place.path }),
        errorsOf: fieldErrors,
        refuse: (errors, blank) => {
          throw new WebError(
            400,
            blank ? 'A commit message and a target branch are needed to delete a file.' : Object.values(errors).flat().join(', '),
          );
        },
      });
    },
  );
}
