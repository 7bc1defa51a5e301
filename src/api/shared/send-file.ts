import type { FastifyReply } from 'fastify';
import type { StoredFile } from '../../services/ci/builds/builds';

/** A stored file as GitLab's `present_file!` sent it: a download, whatever it holds (a job's artifacts). */
export function sendArtifacts(reply: FastifyReply, file: StoredFile) {
  return reply
    .type('application/octet-stream')
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', `attachment; filename=${attachmentName(file.fileName)}`)
    .header('Content-Transfer-Encoding', 'binary')
    .send(file.body);
}

/** A trace as GitLab sent it: plain text, named `<job id>.log`. */
export function sendTrace(reply: FastifyReply, trace: StoredFile) {
  return reply
    .type('text/plain; charset=utf-8')
    .header('Content-Length', String(trace.size))
    .header('Content-Disposition', `infile; filename="${trace.fileName}"`)
    .send(trace.body);
}

/** The file name as GitLab wrote it (unquoted); characters a header may not hold are replaced. */
const attachmentName = (name: string) => name.replace(/[^\x20-\x7e]|[";\\]/g, '_');
